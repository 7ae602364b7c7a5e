import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { IMAGE_LIMITS } from '../../contract/images.ts';
import { IMPORT_REASONS } from '../../contract/import-rules.ts';
import type { DB } from '../../db/schema.ts';
import { type OpenedZip, openArchive } from './zip-archive.ts';

// An imported ZIP waits, whole, in a folder of its own under IMPORT_DIR (`<uuid>/archive.zip`)
// until the import is over; an item's entry is inflated into memory when its turn comes. So an
// import holds on disk what was uploaded, never what it inflates to, and its owner's allowance
// counts exactly that (`imports.archive_bytes`).

const ARCHIVE = 'archive.zip';

/** Moves the uploaded file into a folder of its own under `root`; answers the folder and its size. */
export async function keepArchive(root: string, uploaded: string): Promise<{ dir: string; bytes: number }> {
  const dir = path.join(path.resolve(root), randomUUID());
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = path.join(dir, ARCHIVE);
  try {
    await rename(uploaded, target);
  } catch (error) {
    // The upload folder is on another file system: copied instead (the upload's own is removed by its route).
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(uploaded, target);
  }
  return { dir, bytes: (await stat(target)).size };
}

/** The import holds nothing on disk any more: its folder goes. */
export async function dropArchive(db: Kysely<DB>, importId: number, dir: string | null): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
  await db.updateTable('imports').set({ files_dir: null, archive_bytes: 0 }).where('id', '=', importId).execute();
}

/** A reason an item failed that another try cannot change, in the import page's words. */
export class EntryGone extends Error {
  constructor() {
    super(IMPORT_REASONS.entryGone);
  }
}

/** The entries of an import's archive, opened once for a batch of items and closed after it. */
export interface ArchiveEntries {
  /** The bytes of the entry an item names (its index in the central directory). */
  read(file: string, tooLarge: () => Error): Promise<Buffer>;
  close(): void;
}

export function archiveEntries(dir: string): ArchiveEntries {
  let opened: Promise<OpenedZip> | undefined;
  return {
    async read(file, tooLarge) {
      if (!/^\d+$/.test(file)) throw new EntryGone();
      // An import made before archives were kept whole has its entries inflated in the folder.
      const inflated = path.join(dir, file);
      const info = await stat(inflated).catch(() => undefined);
      if (info?.isFile()) {
        if (info.size > IMAGE_LIMITS.maxBytes) throw tooLarge();
        return readFile(inflated);
      }
      opened ??= openArchive(path.join(dir, ARCHIVE));
      const zip = await opened.catch(() => undefined);
      const entry = zip?.entries[Number(file)];
      if (!zip || !entry) throw new EntryGone();
      return zip.read(entry, IMAGE_LIMITS.maxBytes, tooLarge);
    },
    close() {
      void opened?.then(
        (zip) => zip.close(),
        () => undefined,
      );
    },
  };
}
