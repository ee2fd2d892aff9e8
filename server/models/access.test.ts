// Roles that hold for model connections (issue 29): with auth on, a connection is the admin's
// (its key, its cost) unless the admin made it public. Playing it, letting it voice the
// customer and listing it need the admin otherwise; the endpoint is never called for anyone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/server/lib/errors';
import { requireConnectionUse, tableConnectionNames } from './access';
import { parseConnection, type ConnectionStore } from './connection';
import { createMemoryConnectionStore } from './test/memory-connection-store';
import { startFakeEndpoint, type FakeEndpoint } from './test/fake-endpoint';
import { resolveTablePlayer } from './turn-stream';

const noAdmin = (what: string) => {
  throw new AppError('UNAUTHORIZED', `${what} needs the admin token`);
};
const asAdmin = () => {};

let fake: FakeEndpoint;
let store: ConnectionStore;
beforeAll(async () => {
  fake = await startFakeEndpoint([{ kind: 'reply', content: 'hi' }]);
  store = createMemoryConnectionStore({});
  await store.save({ name: 'private', baseUrl: fake.baseUrl, model: 'fake' });
  await store.save({ name: 'shared', baseUrl: fake.baseUrl, model: 'fake', public: true });
});
afterAll(() => fake?.close());

describe('model connections and roles', () => {
  it('a connection is private unless the admin says public', () => {
    expect(parseConnection({ name: 'x', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }, {}).public).toBe(false);
  });

  it('playing a private connection needs the admin; a public one does not', async () => {
    await expect(resolveTablePlayer(store, { player: { connection: 'private' } }, noAdmin)).rejects.toThrow(
      'playing the model connection "private" needs the admin token',
    );
    expect(await resolveTablePlayer(store, { player: { connection: 'private' } }, asAdmin)).toMatchObject({
      kind: 'model',
      connection: { name: 'private' },
    });
    expect(await resolveTablePlayer(store, { player: { connection: 'shared' } }, noAdmin)).toMatchObject({
      kind: 'model',
      connection: { name: 'shared' },
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('an unknown name answers a non-admin as a private one does (no probing for names)', async () => {
    await expect(resolveTablePlayer(store, { player: { connection: 'nope' } }, noAdmin)).rejects.toThrow(
      'playing the model connection "nope" needs the admin token',
    );
    await expect(requireConnectionUse(store, 'nope', asAdmin, 'the customer voice')).rejects.toThrow(
      'no model connection named "nope"',
    );
  });

  it('the customer voice follows the same rule', async () => {
    await expect(requireConnectionUse(store, 'private', noAdmin, 'the customer voice')).rejects.toThrow(
      'the customer voice "private" needs the admin token',
    );
    await expect(requireConnectionUse(store, 'shared', noAdmin, 'the customer voice')).resolves.toMatchObject({
      name: 'shared',
    });
  });

  it('a non-admin is shown the public names only', async () => {
    expect(await tableConnectionNames(store, false)).toEqual(['shared']);
    expect(await tableConnectionNames(store, true)).toEqual(['private', 'shared']);
  });
});
