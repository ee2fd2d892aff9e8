// npm run catalog:import -- <file.jsonl[.gz]> --name <name> [--dir data/catalogs]
// Imports an Amazon Reviews 2023 item-metadata JSONL file as a named catalog
// (server/engine/catalog/import.ts), printing progress and a summary with the
// bad lines. Exit code 0 when at least one product was imported.

import { DEFAULT_CATALOGS_DIR, importAmazonJsonl } from '../server/engine/catalog/import';

function usage(msg?: string): never {
  if (msg) console.error(`error: ${msg}`);
  console.error('usage: npm run catalog:import -- <file.jsonl[.gz]> --name <name> [--dir <dir>]');
  process.exit(2);
}

function parseArgs(argv: string[]) {
  let file: string | undefined;
  let name: string | undefined;
  let dir = DEFAULT_CATALOGS_DIR;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--name') name = argv[++i];
    else if (a.startsWith('--name=')) name = a.slice(7);
    else if (a === '--dir') dir = argv[++i];
    else if (a.startsWith('--dir=')) dir = a.slice(6);
    else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else if (!file) file = a;
    else usage(`unexpected argument ${a}`);
  }
  if (!file) usage('missing input file');
  if (!name) usage('missing --name');
  return { file, name, dir };
}

async function main() {
  const { file, name, dir } = parseArgs(process.argv.slice(2));
  const isTty = process.stderr.isTTY;
  const { report, file: out } = await importAmazonJsonl(file, {
    name,
    dir,
    progressEvery: 10_000,
    onProgress: (p) => {
      const pct = p.totalBytes ? ((100 * p.bytesRead) / p.totalBytes).toFixed(1) : '?';
      const line = `  ${p.lines.toLocaleString()} lines · ${p.imported.toLocaleString()} imported · ${p.bad} bad · ${pct}% read`;
      if (isTty) process.stderr.write(`\r${line}   `);
      else console.error(line);
    },
  });
  if (isTty) process.stderr.write('\n');
  console.log(`catalog "${report.name}" → ${out}`);
  console.log(
    `  lines ${report.lines} · imported ${report.imported} · bad ${report.badCount} · warnings ${report.warningCount} · ${(report.ms / 1000).toFixed(1)} s`,
  );
  if (report.badCount > 0) {
    console.log('bad lines (skipped):');
    for (const b of report.bad.slice(0, 50)) console.log(`  line ${b.line}: ${b.reason}`);
    if (report.badCount > 50) console.log(`  … ${report.badCount - 50} more in report.json`);
  }
  if (report.warningCount > 0) {
    console.log('warnings (line kept):');
    for (const w of report.warnings.slice(0, 20)) console.log(`  line ${w.line}: ${w.reason}`);
    if (report.warningCount > 20) console.log(`  … ${report.warningCount - 20} more in report.json`);
  }
  if (report.imported === 0) process.exit(1);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
