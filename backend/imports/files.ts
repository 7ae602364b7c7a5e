import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ItemData } from './items.ts';

// The inflated entries of an import's ZIP wait in a folder of their own under IMPORT_DIR until their
// items are done. Once the import has finished, only the files of items that failed are kept (a
// retry needs them); the folder goes when none is left, or when the import is undone.

/** Removes the files no failed or waiting item needs; answers how many are kept. */
export async function pruneFiles(db: Kysely<DB>, importId: number, filesDir: string): Promise<number> {
  const needed = new Set<string>();
  const rows = await db.selectFrom('import_items').select('data').where('import_id', '=', importId).where('state', '!=', 'done').execute();
  for (const row of rows) {
    const image = ItemData.shape.image.safeParse((row.data as { image?: unknown }).image);
    if (image.success && image.data && 'file' in image.data) needed.add(image.data.file);
  }
  const names = await readdir(filesDir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => !needed.has(name)).map((name) => rm(path.join(filesDir, name), { force: true })));
  return names.filter((name) => needed.has(name)).length;
}
