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
