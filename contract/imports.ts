import { z } from 'zod';
import { isoTimestamp } from './fields.ts';
import { NextCursor } from './paging.ts';

// The API tests read the refusal texts from this module, beside the shapes they check.
export { IMPORT_MSG } from './import-rules.ts';

// Moving in and out (docs/import-export.md): imports of a bookmark file or a ZIP, and the export. Their
// limits, texts and file names are in import-rules.ts.

export const IMPORT_KINDS = ['netscape', 'pinboard', 'images'] as const;
export const ImportKind = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof ImportKind>;

/** `cancelled`: stopped by its owner before its end (POST /api/imports/{id}/cancel); the pins it made so far are kept. */
export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const ImportStatus = z.enum(IMPORT_STATUSES);
export type ImportStatus = z.infer<typeof ImportStatus>;

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

/** DELETE /api/imports/{id}: what undoing it removed, and the pins kept because they were edited since. */
export const ImportUndone = z.object({ removedPins: z.number().int(), removedBoards: z.number().int(), keptPins: z.number().int() }).meta({ id: 'ImportUndone' });
export type ImportUndone = z.infer<typeof ImportUndone>;

/** GET /api/export: the ZIP, streamed (a binary string to OpenAPI; the client downloads it, never parses it). */
export const ExportZip = z.string().meta({ format: 'binary' });
