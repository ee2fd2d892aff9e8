// Test helper: the hidden goal's values (ids, order ids and statuses, policy answers, omitted
// slots, summary lines) that must not appear in anything the agent seat receives. Values the
// agent legitimately sees anyway (in the customer's messages or the public tool and env
// descriptions) are left out, since their presence proves nothing.
import type { HiddenGoal } from '../types';

function leaves(x: unknown, out: string[]): string[] {
  if (typeof x === 'string') out.push(x);
  else if (Array.isArray(x)) for (const v of x) leaves(v, out);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) leaves(v, out);
  return out;
}

export function secretValues(goal: HiddenGoal, publicText: string): string[] {
  const values = new Set([
    ...leaves(goal.data, []),
    ...leaves(goal.slots ?? null, []),
    ...goal.summary.map((s) => s.trim()),
  ]);
  return [...values].filter((v) => v.length >= 3 && !publicText.includes(v));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every object key in a payload: field names are structure, not values. */
export function fieldNames(x: unknown, out = new Set<string>()): string {
  if (Array.isArray(x)) for (const v of x) fieldNames(v, out);
  else if (x && typeof x === 'object')
    for (const [k, v] of Object.entries(x)) {
      out.add(k);
      fieldNames(v, out);
    }
  return [...out].join(' ');
}

/** The secret values found in a payload as whole tokens ("open" is not found in "opening"); empty = no leak. */
export function leakedValues(payload: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) =>
    [s, JSON.stringify(s).slice(1, -1)].some((form) =>
      new RegExp(`(^|[^A-Za-z0-9_])${escape(form)}($|[^A-Za-z0-9_])`).test(payload),
    ),
  );
}
