// No zod here: the web client imports these, and zod would weigh on its first script
// (the schemas are in imports.ts).

// Moving in and out (docs/import-export.md): the limits, texts and file names of imports and the export.

export const IMPORT_LIMITS = {
  /** Largest file POST /api/imports takes (200 MiB), streamed to disk, never held in memory. */
  maxBytes: 200 * 1024 * 1024,
  /** The multipart form field the file comes in. */
  field: 'file',
  /** A ZIP may hold at most this many entries (folders included). */
  zipEntries: 10_000,
  /** What a ZIP's entries may inflate to, all together (2 GiB). */
  zipInflatedBytes: 2 * 1024 * 1024 * 1024,
  /** No entry, and not the archive as a whole, may inflate to more than this many times its compressed size. */
  zipRatio: 100,
  /** Entries this small are not judged by their own ratio (a few bytes of deflate say nothing); the whole archive still is. */
  zipRatioFloorBytes: 64 * 1024,
  /** Items (pins to make) one import may hold, whatever its kind. */
  items: 20_000,
  /** Failures GET /api/imports/{id} lists at most. */
  failuresListed: 1000,
  /** Files one bulk upload takes at once (the New Pin page, a board page). */
  bulkFiles: 200,
  /** `import:progress` is sent at most this often per import. */
  progressIntervalMs: 1000,
} as const;

export const IMPORT_MSG = {
  missing: 'Choose a file to import.',
  tooLarge: 'Import files can be at most 200 MB.',
  notRecognised: 'This file is not one Pinboard can import: use a bookmark file (HTML), a Pinboard export or a ZIP of images.',
  zipTooManyEntries: `This ZIP has more than ${IMPORT_LIMITS.zipEntries.toLocaleString('en-US')} entries.`,
  zipUnsafePath: 'This ZIP has an entry whose path leaves its folder.',
  zipTooBig: 'This ZIP inflates to more than 2 GB.',
  zipRatio: `This ZIP has an entry that inflates to more than ${IMPORT_LIMITS.zipRatio} times its size.`,
  zipArchiveRatio: `This ZIP inflates to more than ${IMPORT_LIMITS.zipRatio} times its size.`,
  tooManyItems: `This file holds more than ${IMPORT_LIMITS.items.toLocaleString('en-US')} pins: split it into smaller files.`,
  tooManyOpen: (open: number) => `You already have ${open} import${open === 1 ? '' : 's'} waiting or running: let one finish, or stop one, before starting another.`,
  diskAllowance: (megabytes: number) => `Your imports waiting or running already hold ${megabytes} MB of files: let one finish, or stop one, before starting another.`,
  notRunning: 'This import is not running: there is nothing to stop.',
  zipDamaged: 'This ZIP is damaged or incomplete.',
  zipEncrypted: 'This ZIP is encrypted.',
  exportInvalid: 'This Pinboard export is damaged: its pinboard.json does not read.',
  nothingToRetry: 'This import has no failed items to try again.',
  retryWhileRunning: 'This import is still running: try its failures again once it has finished.',
} as const;

/** An import that will run no more: finished, failed, or stopped by its owner. */
export const isImportOver = (status: string): boolean => status === 'done' || status === 'failed' || status === 'cancelled';

/** Why an item failed (the `reason` of a failure), as the import page shows it. */
export const IMPORT_REASONS = {
  noImage: 'no image',
  notReinvited: 'not re-invited',
  alreadyImported: 'already imported',
  /** A ZIP entry read when its item's turn came, which was not there or not whole any more. */
  entryGone: 'the file is gone: import the ZIP again',
} as const;

/** The export's file names inside its ZIP. */
export const EXPORT_FILES = {
  json: 'pinboard.json',
  bookmarks: 'bookmarks.html',
  csv: 'pins.csv',
  images: 'images/',
} as const;

/** The columns of `pins.csv`, in the export and in a ZIP of images. */
export const CSV_COLUMNS = ['file', 'title', 'description', 'source', 'board'] as const;
