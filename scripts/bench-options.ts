// The bench scripts' command-line options: node's util.parseArgs (strict, so a misspelt option is
// an error instead of being ignored, and both `--name value` and `--name=value` work) plus the
// value checks they share, and --help listing every option with its default.
import { parseArgs } from 'node:util';

/** One option: its default as typed on the command line, what it means, and how its text is read. */
export interface BenchOption<T> {
  default: string;
  help: string;
  read(text: string, flag: string): T;
}

type Values<S extends Record<string, BenchOption<unknown>>> = { [K in keyof S]: ReturnType<S[K]['read']> };

/** A wrong command line: the message names the option and what it needs. */
export class BenchOptionError extends Error {}

function number(text: string, flag: string, whole: boolean, zero: boolean): number {
  const v = text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(v) || (whole && !Number.isInteger(v)) || v < 0 || (!zero && v === 0))
    throw new BenchOptionError(
      `${flag} needs a ${zero ? 'non-negative' : 'positive'} ${whole ? 'whole number' : 'number'}, got "${text}"`,
    );
  return v;
}

function choice<T extends string>(value: string, flag: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value))
    throw new BenchOptionError(`${flag}: unknown "${value}"; choose from ${choices.join(', ')}`);
  return value as T;
}

/** A number > 0 (`whole`: and an integer). */
export const positive = (fallback: number, help: string, whole = false): BenchOption<number> => ({
  default: String(fallback),
  help,
  read: (text, flag) => number(text, flag, whole, false),
});

/** A whole number ≥ 0. */
export const count = (fallback: number, help: string): BenchOption<number> => ({
  default: String(fallback),
  help,
  read: (text, flag) => number(text, flag, true, true),
});

/** Free text ('' when not given and no default). */
export const text = (fallback: string, help: string): BenchOption<string> => ({
  default: fallback,
  help,
  read: (t) => t,
});

/** One of `choices`. */
export const oneOf = <T extends string>(choices: readonly T[], fallback: T, help: string): BenchOption<T> => ({
  default: fallback,
  help: `${help} (${choices.join(' | ')})`,
  read: (t, flag) => choice(t, flag, choices),
});

/** A comma-separated list, each item one of `choices`. */
export const listOf = <T extends string>(choices: readonly T[], fallback: string, help: string): BenchOption<T[]> => ({
  default: fallback,
  help: `${help} (from ${choices.join(', ')})`,
  read: (t, flag) => t.split(',').map((v) => choice(v, flag, choices)),
});

/** The options' help text: the usage line, then one line per option with its default. */
export function benchHelp(usage: string, spec: Record<string, BenchOption<unknown>>): string {
  const rows = Object.entries(spec).map(([name, o]) => [`--${name}`, o.help, o.default === '' ? '' : `[${o.default}]`]);
  const width = Math.max(...rows.map((r) => r[0].length));
  return [usage, ...rows.map(([flag, help, dflt]) => `  ${flag.padEnd(width)}  ${help} ${dflt}`.trimEnd())].join('\n');
}

/**
 * Reads `args` against `spec`; `given(name)` says whether the option was on the command line.
 * Throws BenchOptionError for an unknown option, a missing value or a value its option refuses.
 */
export function parseBenchOptions<S extends Record<string, BenchOption<unknown>>>(
  args: readonly string[],
  spec: S,
): { values: Values<S>; given(name: keyof S): boolean; help: boolean } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean' },
        ...Object.fromEntries(Object.keys(spec).map((name) => [name, { type: 'string' as const }])),
      },
    });
  } catch (e) {
    throw new BenchOptionError((e as Error).message);
  }
  const raw = parsed.values as Record<string, string | boolean | undefined>;
  const values = Object.fromEntries(
    Object.entries(spec).map(([name, o]) => {
      const given = raw[name];
      return [name, o.read(typeof given === 'string' ? given : o.default, `--${name}`)];
    }),
  ) as Values<S>;
  return { values, given: (name) => raw[name as string] !== undefined, help: raw.help === true };
}

/** parseBenchOptions over this process's arguments: --help prints the help and exits 0, a wrong line exits 2. */
export function benchOptions<S extends Record<string, BenchOption<unknown>>>(
  usage: string,
  spec: S,
): Values<S> & { given(name: keyof S): boolean } {
  try {
    const { values, given, help } = parseBenchOptions(process.argv.slice(2), spec);
    if (help) {
      console.log(benchHelp(usage, spec));
      process.exit(0);
    }
    return { ...values, given };
  } catch (e) {
    if (!(e instanceof BenchOptionError)) throw e;
    console.error(`${e.message}\n\n${benchHelp(usage, spec)}`);
    process.exit(2);
  }
}
