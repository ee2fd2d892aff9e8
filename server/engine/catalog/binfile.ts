// A tiny binary container for catalogs on disk: a JSON header (metadata, small
// string tables, section directory) followed by raw typed arrays, each 8-byte
// aligned so loading is one read plus zero-copy views. Node-only (fs).

import fs from 'node:fs';
import path from 'node:path';

const MAGIC = 'ECOMCAT1';

export type TypedArray = Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array;
type Kind = 'u8' | 'u16' | 'u32' | 'f32' | 'f64';

interface SectionEntry {
  name: string;
  kind: Kind;
  offset: number;
  length: number;
}

const CTORS = {
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;

function kindOf(a: TypedArray): Kind {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Float32Array) return 'f32';
  return 'f64';
}

const align8 = (n: number) => (n + 7) & ~7;

/** Write atomically (temp file + rename) so a crash never leaves a half cache. */
export function writeBinFile(file: string, meta: unknown, sections: Record<string, TypedArray>): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const entries: SectionEntry[] = [];
  let offset = 0;
  for (const [name, arr] of Object.entries(sections)) {
    entries.push({ name, kind: kindOf(arr), offset, length: arr.length });
    offset = align8(offset + arr.byteLength);
  }
  const header = Buffer.from(JSON.stringify({ meta, sections: entries }), 'utf8');
  const dataStart = align8(8 + 4 + header.length);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    const head = Buffer.alloc(dataStart);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(header.length, 8);
    header.copy(head, 12);
    fs.writeSync(fd, head);
    let pos = dataStart;
    const pad = Buffer.alloc(8);
    for (const e of entries) {
      const arr = sections[e.name];
      const bytes = Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength);
      fs.writeSync(fd, bytes, 0, bytes.length, pos);
      pos += bytes.length;
      const gap = align8(pos - dataStart) + dataStart - pos;
      if (gap) fs.writeSync(fd, pad, 0, gap, pos);
      pos += gap;
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  return fs.statSync(file).size;
}

export interface BinFile {
  meta: unknown;
  sections: Map<string, TypedArray>;
}

/** Read a file written by writeBinFile; throws on a malformed file. */
export function readBinFile(file: string): BinFile {
  return parseBinFile(fs.readFileSync(file), file);
}

/**
 * The sections of a file's bytes, as views (no copy unless the bytes are misaligned). `bytes`
 * is what the views share: a loader thread can transfer its buffer and parse it again for free.
 */
export function parseBinFile(bytes: Uint8Array, file: string): BinFile & { bytes: Uint8Array } {
  const buf = Buffer.from(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 12 || buf.toString('latin1', 0, 8) !== MAGIC) throw new Error(`${file}: not a catalog file`);
  const headerLen = buf.readUInt32LE(8);
  const header = JSON.parse(buf.toString('utf8', 12, 12 + headerLen)) as { meta: unknown; sections: SectionEntry[] };
  const dataStart = align8(12 + headerLen);
  // typed-array views need aligned offsets; copy once if Node handed us an unaligned buffer
  const base = buf.byteOffset % 8 === 0 ? buf : Buffer.from(new Uint8Array(buf));
  const sections = new Map<string, TypedArray>();
  for (const e of header.sections) {
    const Ctor = CTORS[e.kind];
    const start = base.byteOffset + dataStart + e.offset;
    if (dataStart + e.offset + e.length * Ctor.BYTES_PER_ELEMENT > base.length) throw new Error(`${file}: truncated`);
    sections.set(e.name, new Ctor(base.buffer, start, e.length));
  }
  return { meta: header.meta, sections, bytes: new Uint8Array(base.buffer, base.byteOffset, base.byteLength) };
}

/** Many strings as one UTF-8 blob plus end offsets (for big string lists). */
export function packStrings(list: readonly string[]): { blob: Uint8Array; ends: Uint32Array } {
  const parts = list.map((s) => Buffer.from(s, 'utf8'));
  const ends = new Uint32Array(list.length);
  let total = 0;
  parts.forEach((p, i) => {
    total += p.length;
    ends[i] = total;
  });
  const blob = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    blob.set(p, o);
    o += p.length;
  }
  return { blob, ends };
}

export function unpackStrings(blob: Uint8Array, ends: Uint32Array): string[] {
  const buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Array<string>(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    out[i] = buf.toString('utf8', start, ends[i]);
    start = ends[i];
  }
  return out;
}
