// The rule for comparing a replay with what was stored (round 11): evidence is explanation,
// not reward. A replay must reproduce every event, observation and number exactly; the
// evidence lists of a reward breakdown (`breakdown.evidence`, `breakdown.task.evidence`) may
// be worded differently by a newer engine of the same ENGINE_VERSION (docs/engine.md, "Engine
// version and replays"). Used by the replay checks (episode service, env server) and the
// golden test's behaviour digest.

import type { EpisodeEvent } from './types';

/** What every evidence list is replaced with when evidence is left out of a comparison. */
export const EVIDENCE_LEFT_OUT = '(evidence left out)';

/**
 * A plain-JSON value with every reward breakdown's evidence replaced by EVIDENCE_LEFT_OUT:
 * the `evidence` of an object that has `rTask` and `evidence` (a breakdown or a task result).
 * Everything else is copied as it is.
 */
export function withoutEvidence(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEvidence);
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const scored = 'rTask' in o && 'evidence' in o;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) out[k] = scored && k === 'evidence' ? EVIDENCE_LEFT_OUT : withoutEvidence(o[k]);
  return out;
}

/**
 * Whether a replayed event is the stored one (its JSON text, as the stores keep it): the same
 * text, or, for the reward event only, the same once the evidence is left out of both.
 */
export function sameEventButEvidence(replayed: EpisodeEvent, storedPayload: string): boolean {
  if (JSON.stringify(replayed) === storedPayload) return true;
  if (replayed.kind !== 'reward') return false;
  let stored: unknown;
  try {
    stored = JSON.parse(storedPayload);
  } catch {
    return false;
  }
  const plain = JSON.parse(JSON.stringify(replayed)) as unknown;
  return JSON.stringify(withoutEvidence(plain)) === JSON.stringify(withoutEvidence(stored));
}
