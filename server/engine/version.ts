// The engine's rule version. A stored episode is its config plus the agent's actions; it
// replays to the same events only under the same rules (generators, customer, verifiers,
// reward). Stored episodes carry the version they were played under.
//
// Bump ENGINE_VERSION when a change alters what an existing (config, actions) replays to.
// Keep an old version in REPLAYABLE_VERSIONS when its episodes still replay exactly (e.g. a
// new env was added: JOURNEY episodes record the env set they drew from, so their seeds hold).

// v2: a CART item is protected from other sub-tasks' p_oos inside a JOURNEY (a PD pool could
// empty it, leaving the journey unsolvable). Only JOURNEY episodes can replay differently, so
// v1 episodes of the other seven envs still replay exactly.
// v3 (SPEC §6 revision 3): top_k = max(5, 20 − ⌊5d/4⌋) caps every search and rerank; p_oos
// strikes seen non-goal products at the goal's rate; RETURN histories are built as STATUS's
// (H_orders look-alike orders, the target uniform among the candidates); STATUS's reference
// responds to the axes. Also v3 (issue 31, facts that agree): retrieval noise never breaks a
// stated catalog.search filter; the policy rules' return windows and return shipping fees are
// the ones the return tools apply (mail returns of defective items are free); POLICY no longer
// asks about those two topics. An older episode's config carries its version (EpisodeConfig
// .engineVersion), and the engine plays it under those rules (both changes gated alike), so v1
// and v2 still replay exactly.
// v4 (issue 27): POLICY's rule book gains a branch per two-clause department (policy-kb.ts) and
// the customer states 3·B_branch + 1 facts, so the question's words no longer name the rule
// (a facts-blind guess passed 6.1%); POLICY and JOURNEY episodes of v3 replay with v3's book.
// Also v4: JOURNEY's p_switch rides on the customer's answer to a question, in one message.
export const ENGINE_VERSION = 4;

/** The first version of revision 3's generation and tool rules. */
export const REV3_RULES = 3;

/** The first version of v4's rules: POLICY's branch rules and 3·B_branch + 1 stated facts, JOURNEY's
 * switch inside a reply. */
export const V4_RULES = 4;

/** Versions whose episodes this engine replays exactly, with the envs they are exact for (null: all). */
const REPLAYS: ReadonlyMap<number, readonly string[] | null> = new Map([
  [1, ['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE']],
  [2, null],
  [3, null],
  [4, null],
]);

/** Versions whose episodes this engine replays exactly (for some or all envs). */
export const REPLAYABLE_VERSIONS: readonly number[] = [...REPLAYS.keys()];

/** null when an episode of `envId` played under `version` replays here, else the plain reason it cannot. */
export function replayRefusal(version: number, envId: string): string | null {
  const envs = REPLAYS.get(version);
  if (envs === null) return null;
  if (envs?.includes(envId)) return null;
  const why = envs
    ? `this engine (v${ENGINE_VERSION}) changed ${envId}'s rules since then`
    : `this engine (v${ENGINE_VERSION}) replays v${REPLAYABLE_VERSIONS.join(', v')} only`;
  return (
    `this episode was played under engine rules v${version}; ${why}, ` +
    `so it cannot be rebuilt or continued (its stored events are shown as recorded)`
  );
}
