// The episode tables are read one way (queries/index.ts, through the SQL layer): the rows it
// gives are the ones Prisma's client gives (Dates, booleans), its one-column updates keep
// updatedAt as Prisma would, its list pages as before, and a fork reads its parent's actions once.
import { describe, expect, it } from 'vitest';
import type { SqlDb } from '@/server/db/sql';
import { episodeReads } from './queries';
import { db, searchAction, service, serviceWith, setupServiceTests } from './test/service-kit';

setupServiceTests();

describe('the episode reads', () => {
  it("give the row Prisma's client gives, before and after the service's one-column updates", async () => {
    const reads = episodeReads(db.sql);
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 5, player: 'human' });
    await service.submitAction(ep.id, searchAction('a red mug'));
    const prismaRow = () => db.prisma.episode.findUnique({ where: { id: ep.id } });
    expect(await reads.getRow(ep.id)).toEqual(await prismaRow());

    const before = (await reads.getRow(ep.id))!.updatedAt;
    await new Promise((r) => setTimeout(r, 5));
    await service.revealGoal(ep.id);
    await service.setInfraError(ep.id, { kind: 'timeout', message: 'no answer', turn: 1 });
    const after = (await reads.getRow(ep.id))!;
    expect(after).toEqual(await prismaRow());
    expect(after.revealedAt).toBeInstanceOf(Date);
    expect(after.infraError).toContain('timeout');
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.getTime());
    expect(await reads.getRow('no-such-episode')).toBeNull();
  });

  it('pages newest first by cursor; an unknown cursor gives an empty page', async () => {
    for (const seed of [11, 12, 13]) await service.startEpisode({ envId: 'PD', d: 0, seed, player: 'human' });
    const ids = (
      await db.prisma.episode.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } })
    ).map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Array<{ id: string }>; nextCursor: string | null } = await service.listEpisodes({
        cursor,
        limit: 2,
      });
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect(await service.listEpisodes({ cursor: 'cnope', limit: 2 })).toEqual({ items: [], nextCursor: null });
  });

  it("reads the parent's actions once to fork it, copying who acted and what each step ended at", async () => {
    const statements: string[] = [];
    const counted: SqlDb = {
      ...db.sql,
      all: (sql, args) => (statements.push(sql), db.sql.all(sql, args)),
    };
    const forking = serviceWith({ db: counted });
    const parent = await forking.startEpisode({ envId: 'CART', d: 0, seed: 7, player: 'human' });
    await forking.submitAction(parent.id, searchAction('a lamp'), { actor: 'human' });
    await forking.submitAction(parent.id, searchAction('a desk lamp'), { actor: 'oracle' });
    statements.length = 0;
    const fork = await forking.forkEpisode(parent.id, 2);
    expect(statements.filter((s) => s.includes('FROM "EpisodeAction"'))).toHaveLength(1);
    const [theirs, ours] = await Promise.all([forking.getActions(parent.id), forking.getActions(fork.id)]);
    expect(ours.map(({ actor, eventEnd, raw }) => ({ actor, eventEnd, raw }))).toEqual(
      theirs.map(({ actor, eventEnd, raw }) => ({ actor, eventEnd, raw })),
    );
    expect(fork.player).toBe('mixed:human+oracle');
  });
});
