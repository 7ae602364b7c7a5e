import { z } from 'zod';
import { isoTimestamp } from './fields.ts';
import { NextCursor } from './paging.ts';

// Moving in and out (docs/import-export.md): imports of a bookmark file or a ZIP, and the export.

export const IMPORT_LIMITS = {
  /** Largest file POST /api/imports takes (200 MiB), streamed to disk, never held in memory. */
  maxBytes: 200 * 1024 * 1024,
  /** The multipart form field the file comes in. */
  field: 'file',
  /** A ZIP may hold at most this many entries (folders included). */
  zipEntries: 10_000,
  /** What a ZIP's entries may inflate to, all together (2 GiB). */
  zipInflatedBytes: 2 * 1024 * 1024 * 1024,
  /** No entry may inflate to more than this many times its compressed size. */
  zipRatio: 100,
  /** Entries this small are never judged by their ratio (a few bytes of deflate say nothing). */
  zipRatioFloorBytes: 64 * 1024,
  /** Failures GET /api/imports/{id} lists at most. */
  failuresListed: 1000,
  /** Files one bulk upload takes at once (the New Pin page, a board page). */
  bulkFiles: 200,
  /** `import:progress` is sent at most this often per import. */
  progressIntervalMs: 1000,
} as const;

export const IMPORT_KINDS = ['netscape', 'pinboard', 'images'] as const;
export const ImportKind = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof ImportKind>;

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const ImportStatus = z.enum(IMPORT_STATUSES);
export type ImportStatus = z.infer<typeof ImportStatus>;

export const IMPORT_MSG = {
  missing: 'Choose a file to import.',
  tooLarge: 'Import files can be at most 200 MB.',
  notRecognised: 'This file is not one Pinboard can import: use a bookmark file (HTML), a Pinboard export or a ZIP of images.',
  zipTooManyEntries: `This ZIP has more than ${IMPORT_LIMITS.zipEntries.toLocaleString('en-US')} entries.`,
  zipUnsafePath: 'This ZIP has an entry whose path leaves its folder.',
  zipTooBig: 'This ZIP inflates to more than 2 GB.',
  zipRatio: `This ZIP has an entry that inflates to more than ${IMPORT_LIMITS.zipRatio} times its size.`,
  zipDamaged: 'This ZIP is damaged or incomplete.',
  zipEncrypted: 'This ZIP is encrypted.',
  exportInvalid: 'This Pinboard export is damaged: its pinboard.json does not read.',
  notFinished: 'This import is still running: undo it once it has finished.',
  nothingToRetry: 'This import has no failed items to try again.',
  retryWhileRunning: 'This import is still running: try its failures again once it has finished.',
} as const;

/** Why an item failed (the `reason` of a failure), as the import page shows it. */
export const IMPORT_REASONS = {
  noImage: 'no image',
  notReinvited: 'not re-invited',
  alreadyImported: 'already imported',
} as const;

export const Import = z
  .object({
    id: z.number().int(),
    kind: ImportKind,
    status: ImportStatus,
    /** Items in the file. */
    total: z.number().int(),
    /** Items that became pins (or were pins already, from an earlier import of the same file). */
    done: z.number().int(),
    /** Items that did not: see `failures`. */
    failed: z.number().int(),
    createdAt: isoTimestamp,
  })
  .meta({ id: 'Import' });
export type Import = z.infer<typeof Import>;

export const ImportFailure = z.object({ item: z.string(), reason: z.string() }).meta({ id: 'ImportFailure' });
export type ImportFailure = z.infer<typeof ImportFailure>;

export const ImportCreated = z.object({ import: Import }).meta({ id: 'ImportCreated' });
export type ImportCreated = z.infer<typeof ImportCreated>;

/** GET /api/imports/{id}: the import and its failures (at most 1,000, in file order). */
export const ImportDetail = z.object({ import: Import, failures: z.array(ImportFailure) }).meta({ id: 'ImportDetail' });
export type ImportDetail = z.infer<typeof ImportDetail>;

/** GET /api/imports: the user's imports, newest first, paged like every list. */
export const ImportList = z.object({ imports: z.array(Import), nextCursor: NextCursor }).meta({ id: 'ImportList' });
export type ImportList = z.infer<typeof ImportList>;

/** The `import:progress` socket event (to the user's own sockets, at most once a second per import). */
export interface ImportProgress {
  importId: number;
  total: number;
  done: number;
  failed: number;
  status: ImportStatus;
}

/** The export's file names inside its ZIP. */
export const EXPORT_FILES = {
  json: 'pinboard.json',
  bookmarks: 'bookmarks.html',
  csv: 'pins.csv',
  images: 'images/',
} as const;

/** The columns of `pins.csv`, in the export and in a ZIP of images. */
export const CSV_COLUMNS = ['file', 'title', 'description', 'source', 'board'] as const;

/** DELETE /api/imports/{id}: what undoing it removed, and the pins kept because they were edited since. */
export const ImportUndone = z
  .object({ removedPins: z.number().int(), removedBoards: z.number().int(), keptPins: z.number().int() })
  .meta({ id: 'ImportUndone' });
export type ImportUndone = z.infer<typeof ImportUndone>;
