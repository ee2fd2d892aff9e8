// The reward revision this engine scores under (SPEC §8). Every stored episode records the
// revision it was scored with, so an older episode is shown (and can be re-scored) honestly.
// Revision 1: SPEC as first written. Revision 2: r_eff over a fixed T_ref, the RETURN rule,
// IsCorrect needs r_hall = 0. Bump it with every change to how a reward is computed.
// (The reward formula's own branch also exports REWARD_REVISION from reward.ts; one of the two
// becomes a re-export of the other at merge.)
export const REWARD_REVISION = 2;
