// npx tsx scripts/reward-gap.ts .eval/heuristic-….json
// Issue 7, "reward tracks pass": from an eval report (npm run eval -- --agent heuristic …), the
// mean reward of passed and failed episodes per env and d band (0–4, 5–8, 9–12) and the gap,
// as the markdown table in docs/environments.md. Exit 1 when a band with both outcomes has a gap
// under 0.15.
import fs from 'node:fs';

interface Row {
  env: string;
  d: number;
  reward: number;
  isCorrect: boolean;
}

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npx tsx scripts/reward-gap.ts <eval report .json>\n');
  process.exit(2);
}
const rows = (JSON.parse(fs.readFileSync(file, 'utf8')) as { rows: Row[] }).rows;
const BANDS: Array<[number, number]> = [
  [0, 4],
  [5, 8],
  [9, 12],
];
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const f2 = (x: number) => x.toFixed(2);

let short = 0;
console.log('| env | d 0–4 | d 5–8 | d 9–12 |\n|---|---|---|---|');
for (const env of [...new Set(rows.map((r) => r.env))]) {
  const cells = BANDS.map(([lo, hi]) => {
    const band = rows.filter((r) => r.env === env && r.d >= lo && r.d <= hi);
    const passed = band.filter((r) => r.isCorrect).map((r) => r.reward);
    const failed = band.filter((r) => !r.isCorrect).map((r) => r.reward);
    if (passed.length === 0 || failed.length === 0)
      return `${passed.length ? f2(mean(passed)) : '–'} / ${failed.length ? f2(mean(failed)) : '–'} (${passed.length ? 'no failure' : 'no pass'})`;
    const gap = mean(passed) - mean(failed);
    if (gap < 0.15) short++;
    return `${f2(mean(passed))} / ${f2(mean(failed))} (${f2(gap)}${passed.length < 5 ? `; ${passed.length} passed` : ''})`;
  });
  console.log(`| ${env} | ${cells.join(' | ')} |`);
}
console.log(`\nreward-gap: ${short} band(s) with a pass/fail gap under 0.15`);
process.exitCode = short > 0 ? 1 : 0;
