// PostgreSQL arrays in the binary wire format, for the import's batch statements (pg-batch.ts).
// pg sends a Buffer parameter as binary (format 1), and `$1::text[]` makes the server read it
// with array_recv: each element is a length and its bytes, with no quoting to add here (pg's own
// array literal escapes every `"` and `\` of ~500 MB of JSON with two regex passes) and none to
// parse there (array_in scans every character for quotes and backslashes).
// Format (src/backend/utils/adt/arrayfuncs.c, array_recv): int32 dimensions (1), int32 has-nulls,
// uint32 element type oid, then per dimension int32 length and int32 lower bound (1), then per
// element int32 byte length (-1 for NULL) and the element's binary form.

const TEXT_OID = 25;
const INT4_OID = 23;
const TSVECTOR_OID = 3614;
const HEADER = 20;

function header(buf: Buffer, n: number, hasNull: boolean, oid: number) {
  buf.writeInt32BE(1, 0);
  buf.writeInt32BE(hasNull ? 1 : 0, 4);
  buf.writeUInt32BE(oid, 8);
  buf.writeInt32BE(n, 12);
  buf.writeInt32BE(1, 16);
}

/** A text[] parameter (UTF-8; null elements allowed). */
export function textArray(values: ReadonlyArray<string | null>): Buffer {
  let size = HEADER;
  let hasNull = false;
  const lengths = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) {
      hasNull = true;
      lengths[i] = -1;
      size += 4;
    } else {
      const n = Buffer.byteLength(v, 'utf8');
      lengths[i] = n;
      size += 4 + n;
    }
  }
  const buf = Buffer.allocUnsafe(size);
  header(buf, values.length, hasNull, TEXT_OID);
  let at = HEADER;
  for (let i = 0; i < values.length; i++) {
    buf.writeInt32BE(lengths[i], at);
    at += 4;
    if (lengths[i] > 0) at += buf.write(values[i]!, at, lengths[i], 'utf8');
  }
  return buf;
}

/** An int4[] parameter (32-bit integers). */
export function intArray(values: ReadonlyArray<number>): Buffer {
  const buf = Buffer.allocUnsafe(HEADER + values.length * 8);
  header(buf, values.length, false, INT4_OID);
  let at = HEADER;
  for (const v of values) {
    if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647) throw new Error(`not a 32-bit integer: ${v}`);
    buf.writeInt32BE(4, at);
    buf.writeInt32BE(v, at + 4);
    at += 8;
  }
  return buf;
}

/** A tsvector[] parameter from each element's binary form (tsvectorBinary; null elements allowed). */
export function tsvectorArray(values: ReadonlyArray<Uint8Array | null>): Buffer {
  let size = HEADER;
  let hasNull = false;
  for (const v of values) {
    size += 4 + (v?.length ?? 0);
    if (v === null) hasNull = true;
  }
  const buf = Buffer.allocUnsafe(size);
  header(buf, values.length, hasNull, TSVECTOR_OID);
  let at = HEADER;
  for (const v of values) {
    buf.writeInt32BE(v === null ? -1 : v.length, at);
    at += 4;
    if (v !== null) {
      buf.set(v, at);
      at += v.length;
    }
  }
  return buf;
}

/** PostgreSQL's limits on a position (tsvector.h: MAXENTRYPOS − 1) and on the positions of one lexeme (MAXNUMPOS). */
const LAST_POSITION = 16383;
const MAX_POSITIONS = 256;

/**
 * Words → a tsvector in the binary format tsvectorrecv reads, equal to what tsvectorin makes of
 * the literal tsvectorLiteral (with positions: word i at i + 1) or wordsLiteral (without) writes
 * (pg-search.ts): lexemes unique and in PostgreSQL's order (bytewise on UTF-8, a prefix first),
 * each one's positions ascending and unique, past 16,383 all 16,383, at most 256 and none after
 * 16,383 (uniquePos in tsvector.c). The server then neither parses nor sorts the words: that was a
 * quarter of its CPU in an import of 10,000 episodes (perf). Format (tsvectorrecv): int32 lexemes;
 * per lexeme its bytes and a 0, uint16 positions, each a uint16 (weight 0).
 */
export function tsvectorBinary(words: readonly string[], withPositions: boolean): Uint8Array {
  const positions = new Map<string, number[]>();
  words.forEach((w, i) => {
    let p = positions.get(w);
    if (!p) positions.set(w, (p = []));
    if (!withPositions) return;
    const at = Math.min(i + 1, LAST_POSITION);
    const last = p.length ? p[p.length - 1] : 0;
    if (at !== last && last !== LAST_POSITION && p.length < MAX_POSITIONS) p.push(at);
  });
  // UTF-16 order is UTF-8's (PostgreSQL's) unless a word holds a surrogate pair or U+E000–U+FFFF:
  // then the bytes are compared (rare; most words are ASCII).
  const lexemes = [...positions.keys()].sort();
  if (lexemes.some((w) => /[\uD800-\uFFFF]/.test(w)))
    lexemes.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
  let size = 4;
  for (const w of lexemes) size += Buffer.byteLength(w, 'utf8') + 3 + 2 * positions.get(w)!.length;
  const buf = Buffer.allocUnsafe(size);
  buf.writeInt32BE(lexemes.length, 0);
  let at = 4;
  for (const w of lexemes) {
    at += buf.write(w, at, 'utf8');
    buf[at++] = 0;
    const p = positions.get(w)!;
    at = buf.writeUInt16BE(p.length, at);
    for (const x of p) at = buf.writeUInt16BE(x, at);
  }
  return buf;
}
