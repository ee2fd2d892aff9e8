// What an action may hold so that what is stored replays exactly (issue 29, integrity). JSON
// text can carry values JavaScript keeps but storage does not: `1e309` parses to Infinity, which
// JSON.stringify stores as null; a lone surrogate (`"\ud800"`) is stored as U+FFFD by a UTF-8
// database; 100k-deep nesting overflows the stack of whatever walks it next. Such an action is
// refused before the episode sees it. Pure and iterative (a deep value cannot overflow the check).

/** Deeper than any real tool argument; deep enough for every schema the engine has. */
export const MAX_ACTION_DEPTH = 64;

// with the u flag a surrogate pair is one code point, so only a lone surrogate matches
const wellFormed = (s: string) => !/\p{Surrogate}/u.test(s);

/** Why an action value would not replay as sent (one sentence), or null when it is fine. */
export function actionValueProblem(value: unknown): string | null {
  if (typeof value === 'string') return textProblem(value);
  const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: value, depth: 0, path: 'action' }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v))
      return `${path} is a number JSON cannot store (${v}); send a finite number`;
    if (typeof v === 'string' && !wellFormed(v)) return `${path} holds a lone surrogate (not valid UTF-16 text)`;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_ACTION_DEPTH) return `action nests deeper than ${MAX_ACTION_DEPTH} levels`;
    for (const [k, child] of Object.entries(v)) {
      if (!wellFormed(k)) return `${path} has a key with a lone surrogate (not valid UTF-16 text)`;
      stack.push({ v: child, depth: depth + 1, path: Array.isArray(v) ? `${path}[${k}]` : `${path}.${k}` });
    }
  }
  return null;
}

/** Raw agent text: well-formed, and its brackets (outside JSON strings) no deeper than the limit. */
function textProblem(text: string): string | null {
  if (!wellFormed(text)) return 'action text holds a lone surrogate (not valid UTF-16 text)';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (++depth > MAX_ACTION_DEPTH) return `action text nests deeper than ${MAX_ACTION_DEPTH} levels`;
    } else if ((c === '}' || c === ']') && depth > 0) depth--;
  }
  return null;
}
