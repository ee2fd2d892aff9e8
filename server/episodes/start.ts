// Starting an episode: the request checked (environment, axis overrides, the LLM customer),
// the episode generated and reset, its row written with the hidden goal and the hash of the
// capability token, which is returned once, here.
import { randomInt } from 'node:crypto';
import type { TokenService } from './tokens';
import { createEpisode, listEnvs } from '@/server/engine';
import { axesFor, AXIS_NAMES, type AxisValues } from '@/server/engine/difficulty';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EnvId, EpisodeConfig, EpisodeEvent } from '@/server/engine/types';
import { MAX_SEED, parse, startSchema } from './inputs';
import type { LiveEpisodes } from './live';
import { viewOf, type EpisodeStore } from './store';
import { EpisodeServiceError, type CustomerVoice, type EpisodeView, type StartEpisodeInput } from './types';
import { storedGoalOf } from './stored-goal';

/** What a start needs of the episode service. */
export interface StartContext {
  store: EpisodeStore;
  live: LiveEpisodes;
  defaultCatalogId: string;
  customerVoice?: CustomerVoice;
  loadCatalog(catalogId: string): Promise<void>;
  catalogFor(catalogId: string): Catalog;
  voiced(view: EpisodeView): Promise<EpisodeView>;
  rewriteCustomer(episodeId: string, voice: string | null, events: readonly EpisodeEvent[]): Promise<void>;
  tokens: TokenService;
}

export async function startEpisode(
  ctx: StartContext,
  input: StartEpisodeInput,
): Promise<EpisodeView & { capabilityToken: string }> {
  const { store, live, loadCatalog, catalogFor, voiced, rewriteCustomer, tokens } = ctx;
  const inp = parse(startSchema, input, 'start episode');
  const envs = listEnvs();
  if (!envs.some((e) => e.id === inp.envId)) {
    throw new EpisodeServiceError(
      'BAD_INPUT',
      `unknown environment "${inp.envId}"; available: ${envs.map((e) => e.id).join(', ')}`,
    );
  }
  const overrides = Object.fromEntries(
    Object.entries(inp.axisOverrides ?? {}).filter(([, v]) => v !== undefined),
  ) as Partial<AxisValues>;
  try {
    axesFor(inp.d, overrides);
  } catch (e) {
    throw new EpisodeServiceError(
      'BAD_INPUT',
      `axis overrides: ${(e as Error).message} (axes: ${AXIS_NAMES.join(', ')})`,
    );
  }
  if (inp.customerVoice) {
    if (!ctx.customerVoice)
      throw new EpisodeServiceError('BAD_INPUT', 'this server has no LLM customer; leave customerVoice out');
    await ctx.customerVoice.check(inp.customerVoice);
  }
  const catalogId = inp.catalogId ?? ctx.defaultCatalogId;
  await loadCatalog(catalogId);
  const catalog = catalogFor(catalogId);
  const seed = inp.seed ?? randomInt(0, MAX_SEED);
  const config: EpisodeConfig = {
    envId: inp.envId as EnvId,
    d: inp.d,
    seed,
    ...(Object.keys(overrides).length ? { axisOverrides: overrides } : {}),
  };
  const ep = createEpisode(config, catalog);
  ep.reset();
  const row = await store.createEpisode(ep, {
    catalogId,
    player: inp.player ?? 'human',
    hiddenGoal: JSON.stringify(storedGoalOf(ep)),
    customerVoice: inp.customerVoice ?? null,
  });
  live.keep(ep, row.id, 0, row);
  const capabilityToken = tokens.issue(row.id);
  await rewriteCustomer(row.id, row.customerVoice, ep.events);
  return { ...(await voiced(viewOf(row, [...ep.events], catalogFor))), capabilityToken };
}
