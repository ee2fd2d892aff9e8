// The engine's rule version. A stored episode is its config plus the agent's actions; it
// replays to the same events only under the same rules (generators, customer, verifiers,
// reward). Stored episodes carry the version they were played under.
//
// Bump ENGINE_VERSION when a change alters what an existing (config, actions) replays to.
// Keep an old version in REPLAYABLE_VERSIONS when its episodes still replay exactly (e.g. a
// new env was added: JOURNEY episodes record the env set they drew from, so their seeds hold).

export const ENGINE_VERSION = 1;

/** Versions whose episodes this engine replays exactly. */
export const REPLAYABLE_VERSIONS: readonly number[] = [1];

/** null when an episode played under `version` replays here, else the plain reason it cannot. */
export function replayRefusal(version: number): string | null {
  if (REPLAYABLE_VERSIONS.includes(version)) return null;
  return (
    `this episode was played under engine rules v${version}; this engine (v${ENGINE_VERSION}) replays ` +
    `v${REPLAYABLE_VERSIONS.join(', v')} only, so it cannot be rebuilt or continued (its stored events are shown as recorded)`
  );
}
