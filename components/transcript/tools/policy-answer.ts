// A policy rule's answer read back off its text ("Applies to …: the return window is 30 days
// after delivery." → 30), for "Use in answer" on policy cards. The sentence shapes are the
// knowledge base's own (TOPICS), so every rule's text parses; numbers come back in the unit
// POLICY's answer takes (dollars, days, percent, months, points), categorical answers as worded.
import { TOPICS } from '@/server/engine/world/policy-kb';

const MARK = '\u0000';
const SHAPES = Object.values(TOPICS).map((t) => {
  const [before, after] = t.sentence(MARK).split(MARK);
  return { before, after, unit: t.unit };
});

export function policyAnswerOf(text: string): number | string | null {
  const colon = text.indexOf(': ');
  if (!text.startsWith('Applies to ') || colon < 0 || !text.endsWith('.')) return null;
  const sentence = text.slice(colon + 2, -1);
  for (const { before, after, unit } of SHAPES) {
    if (!sentence.startsWith(before) || !sentence.endsWith(after)) continue;
    const raw = sentence.slice(before.length, sentence.length - after.length);
    if (raw === '') continue;
    if (unit === null) return raw;
    const m = /^\$?(-?\d+(?:\.\d+)?)(?:%| days| months| points)?$/.exec(raw);
    if (m) return Number(m[1]);
  }
  return null;
}
