import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { IMPORT_LIMITS, IMPORT_MSG } from '../../contract/import-rules.ts';
import { HttpError } from '../errors.ts';

// A ZIP someone sent (docs/import-export.md): judged from its central directory before anything is
// inflated, its entries then checked by inflating them into nothing, because a central directory
// can lie; then kept whole. An entry is inflated into memory only when its item's turn comes, with
// the same limits enforced on what comes out again. yauzl
// reads lazily (one entry at a time, never the whole archive) and with `validateEntrySizes` fails
// an entry that inflates to more than it declared.
//
// Refused, with nothing kept: more than IMPORT_LIMITS.zipEntries entries; an entry path that leaves
// its folder (`../`, an absolute path, a drive letter, a backslash); more than 2 GiB inflated in
// all; an entry larger than 64 KiB that inflates to more than 100 times its compressed size, or an
// archive whose entries together do (small entries included: ten thousand 64 KiB entries of zeros
// are a bomb too); an encrypted entry; a damaged archive.

export const refused = (message: string) => new HttpError(400, message, { fields: { [IMPORT_LIMITS.field]: message } });

export interface ZipEntryInfo {
  /** The entry's place in the central directory, from 0: how an item names it. */
  index: number;
  /** The entry's path inside the archive, with forward slashes. */
  name: string;
  isDirectory: boolean;
  uncompressedSize: number;
  crc32: number;
  entry: Entry;
}

export interface OpenedZip {
  entries: ZipEntryInfo[];
  /** Inflates `entry` into memory, the limits enforced on what comes out; an entry declaring more than `maxBytes` is refused with `tooLarge()`. */
  read(entry: ZipEntryInfo, maxBytes: number, tooLarge: () => Error): Promise<Buffer>;
  /** Inflates `entry` and forgets what came out: refuses it (400) if it is not what the central directory said. */
  check(entry: ZipEntryInfo): Promise<void>;
  close(): void;
}

/** True when a path stays inside the folder it is unpacked in. */
export function isSafeEntryPath(name: string): boolean {
  if (name === '' || name.includes('\\') || name.includes('\u0000')) return false;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return false;
  return !name.split('/').some((segment) => segment === '..');
}

/** yauzl's own refusals, said the way this API says them. */
function asRefusal(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const message = error instanceof Error ? error.message : '';
  if (/absolute path|invalid relative path|invalid characters/.test(message)) return refused(IMPORT_MSG.zipUnsafePath);
  if (/encrypt/i.test(message)) return refused(IMPORT_MSG.zipEncrypted);
  if (/too many bytes/.test(message)) return refused(IMPORT_MSG.zipRatio);
  return refused(IMPORT_MSG.zipDamaged);
}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: true }, (error, zip) => {
      if (error) reject(asRefusal(error));
      else resolve(zip);
    });
  });
}

/** Every entry of the central directory, each judged as it is read, then the archive as a whole. */
function readEntries(zip: ZipFile): Promise<ZipEntryInfo[]> {
  return new Promise((resolve, reject) => {
    const entries: ZipEntryInfo[] = [];
    let inflated = 0;
    let compressed = 0;
    const fail = (error: HttpError) => {
      zip.removeAllListeners('entry');
      reject(error);
    };
    zip.on('error', (error: unknown) => fail(asRefusal(error)));
    zip.on('end', () => {
      if (inflated > IMPORT_LIMITS.zipRatioFloorBytes && inflated > IMPORT_LIMITS.zipRatio * Math.max(1, compressed)) return fail(refused(IMPORT_MSG.zipArchiveRatio));
      resolve(entries);
    });
    zip.on('entry', (entry: Entry) => {
      const name = entry.fileName;
      if (!isSafeEntryPath(name)) return fail(refused(IMPORT_MSG.zipUnsafePath));
      if (entry.isEncrypted()) return fail(refused(IMPORT_MSG.zipEncrypted));
      inflated += entry.uncompressedSize;
      compressed += entry.compressedSize;
      if (inflated > IMPORT_LIMITS.zipInflatedBytes) return fail(refused(IMPORT_MSG.zipTooBig));
      if (entry.uncompressedSize > IMPORT_LIMITS.zipRatioFloorBytes && entry.uncompressedSize > IMPORT_LIMITS.zipRatio * Math.max(1, entry.compressedSize)) {
        return fail(refused(IMPORT_MSG.zipRatio));
      }
      entries.push({ index: entries.length, name, isDirectory: name.endsWith('/'), uncompressedSize: entry.uncompressedSize, crc32: entry.crc32, entry });
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/**
 * Collects what an entry inflates to: more than it declared (which the central directory checks and
 * the caller's limit already judged) stops it. yauzl checks this too; this one does not depend on it.
 */
function collect(declared: number, keep: boolean): { sink: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  let seen = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > declared) return done(refused(IMPORT_MSG.zipRatio));
      if (keep) chunks.push(chunk);
      done();
    },
  });
  return { sink, bytes: () => Buffer.concat(chunks) };
}

/** Opens the ZIP at `path` and judges its central directory; throws a 400 HttpError for any refusal. */
export async function openArchive(path: string): Promise<OpenedZip> {
  const zip = await openZip(path);
  try {
    // Known from the end record before a single entry is read.
    if (zip.entryCount > IMPORT_LIMITS.zipEntries) throw refused(IMPORT_MSG.zipTooManyEntries);
    const entries = await readEntries(zip);
    const inflate = async (info: ZipEntryInfo, keep: boolean): Promise<Buffer> => {
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => {
        zip.openReadStream(info.entry, (error, readable) => (error ? reject(asRefusal(error)) : resolve(readable)));
      });
      const out = collect(info.uncompressedSize, keep);
      await pipeline(stream, out.sink).catch((error: unknown) => {
        throw asRefusal(error);
      });
      return out.bytes();
    };
    return {
      entries,
      async read(info, maxBytes, tooLarge) {
        if (info.uncompressedSize > maxBytes) throw tooLarge();
        return inflate(info, true);
      },
      async check(info) {
        await inflate(info, false);
      },
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw asRefusal(error);
  }
}

/** A ZIP by its first bytes: a local file header, or the end record of an empty archive. */
export function looksLikeZip(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 0x03 && head[3] === 0x04) || (head[2] === 0x05 && head[3] === 0x06));
}
