import { crc32, inflateRawSync } from "node:zlib";
import { kbRejected } from "./formats";

/**
 * Zip-based uploads (DOCX, and any later zip format) are checked BEFORE a converter sees them: the
 * central directory is read first and every entry's declared size, the entry count and the total
 * uncompressed size are held to limits; then only the entries the converter needs are inflated, each
 * with its declared size as a hard cap (inflation stops there, so a header that lies about its size
 * is caught at the first byte past it, never expanded), and CRC-checked. What the converter gets is
 * a new archive of those entries stored uncompressed, so it cannot inflate anything else.
 */
export interface ArchiveLimits {
  /** Most entries an archive may hold. */
  maxEntries: number;
  /** Largest uncompressed size of one entry, in bytes. */
  maxEntryBytes: number;
  /** Largest uncompressed size of all entries together, in bytes. */
  maxTotalBytes: number;
}

/** DOCX limits: 5,000 entries, 16 MB per entry (the converted text is capped at 2 M characters anyway), 48 MB in all. */
export const DOCX_LIMITS: ArchiveLimits = {
  maxEntries: 5_000,
  maxEntryBytes: 16 * 1_048_576,
  maxTotalBytes: 48 * 1_048_576,
};

/** One entry as the central directory describes it. */
interface CentralEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** A checked entry: its bytes when it was inflated, null when the converter does not need them. */
export interface ArchiveEntry {
  name: string;
  data: Uint8Array | null;
}

const mb = (n: number) => `${+(n / 1_048_576).toFixed(1)} MB`;

function endOfCentralDirectory(view: DataView, name: string): number {
  const min = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= min; at--) if (view.getUint32(at, true) === 0x06054b50) return at;
  throw kbRejected("corrupt", `${name} is not a complete ZIP archive (no central directory).`);
}

function centralDirectory(bytes: Uint8Array, name: string, limits: ArchiveLimits): CentralEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = endOfCentralDirectory(view, name);
  const count = view.getUint16(eocd + 10, true);
  const offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === 0xffffffff)
    throw kbRejected("unsupported", `${name} is a ZIP64 archive, which is not supported.`);
  if (count > limits.maxEntries)
    throw kbRejected("too_large", `${name} holds ${count} files; the limit is ${limits.maxEntries}.`);
  const entries: CentralEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== 0x02014b50)
      throw kbRejected("corrupt", `${name} has a damaged ZIP directory.`);
    const nameLength = view.getUint16(at + 28, true);
    entries.push({
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** Checks every declared size against the limits before anything is inflated. */
function checkDeclaredSizes(entries: CentralEntry[], name: string, limits: ArchiveLimits): void {
  let total = 0;
  for (const e of entries) {
    if (e.size === 0xffffffff || e.compressedSize === 0xffffffff)
      throw kbRejected("unsupported", `${name} is a ZIP64 archive, which is not supported.`);
    if (e.size > limits.maxEntryBytes) {
      throw kbRejected(
        "too_large",
        `${name} unpacks ${e.name} to ${mb(e.size)}; the limit is ${mb(limits.maxEntryBytes)} per part.`,
      );
    }
    total += e.size;
    if (total > limits.maxTotalBytes)
      throw kbRejected("too_large", `${name} unpacks to more than ${mb(limits.maxTotalBytes)}, the limit.`);
  }
}

function entryData(bytes: Uint8Array, e: CentralEntry, name: string): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = e.localOffset;
  if (at + 30 > bytes.byteLength || view.getUint32(at, true) !== 0x04034b50)
    throw kbRejected("corrupt", `${name} has a damaged entry (${e.name}).`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + e.compressedSize > bytes.byteLength) throw kbRejected("corrupt", `${name} is truncated (${e.name}).`);
  const raw = bytes.subarray(start, start + e.compressedSize);
  if (e.flags & 1) throw kbRejected("unsupported", `${name} is encrypted; upload an unprotected copy.`);
  let out: Uint8Array;
  if (e.method === 0) out = raw;
  else if (e.method === 8) {
    try {
      // the declared size is a hard cap: inflation stops at the first byte past it
      out = inflateRawSync(raw, { maxOutputLength: Math.max(1, e.size) });
    } catch {
      throw kbRejected(
        "corrupt",
        `${name} has a part (${e.name}) that unpacks to more than it declares, or does not unpack.`,
      );
    }
  } else throw kbRejected("unsupported", `${name} uses a compression method (${e.method}) that is not supported.`);
  if (out.byteLength !== e.size || crc32(out) !== e.crc)
    throw kbRejected("corrupt", `${name} has a damaged part (${e.name}).`);
  return out;
}

/**
 * Reads a ZIP archive under `limits`; `wanted(entryName)` says which entries to inflate (the others
 * are listed with `data: null`). Throws kbRejected("too_large" | "corrupt" | "unsupported").
 */
export function readArchive(
  bytes: Uint8Array,
  name: string,
  limits: ArchiveLimits,
  wanted: (entry: string) => boolean,
): ArchiveEntry[] {
  const entries = centralDirectory(bytes, name, limits);
  checkDeclaredSizes(entries, name, limits);
  return entries.map((e) => ({
    name: e.name,
    data: e.name.endsWith("/") || !wanted(e.name) ? null : entryData(bytes, e, name),
  }));
}

/** A ZIP archive of `entries`, every one stored (no compression); an entry without data is stored empty. */
export function storedArchive(entries: ArchiveEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const nameBytes = encoder.encode(e.name);
    const data = e.data ?? new Uint8Array();
    const crc = crc32(data);
    const local = new Uint8Array(30 + nameBytes.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x0800, true); // names are UTF-8
    lv.setUint32(14, crc, true);
    lv.setUint32(18, data.byteLength, true);
    lv.setUint32(22, data.byteLength, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const central = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, data.byteLength, true);
    cv.setUint32(24, data.byteLength, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.byteLength + data.byteLength;
  }
  const size = centrals.reduce((n, c) => n + c.byteLength, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, size, true);
  ev.setUint32(16, offset, true);
  return Buffer.concat([...locals, ...centrals, end]);
}

/**
 * A DOCX made safe to convert: the parts mammoth reads (XML and relationships) checked and stored
 * uncompressed, every other part (images, embedded files) left empty — text extraction never reads them.
 */
export function safeDocx(bytes: Uint8Array, name: string, limits: ArchiveLimits = DOCX_LIMITS): Uint8Array {
  return storedArchive(readArchive(bytes, name, limits, (entry) => /\.(xml|rels)$/i.test(entry)));
}
