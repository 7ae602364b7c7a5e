import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';

/**
 * The folders the app keeps its data in on this machine (the embedded database, stored images),
 * and the folders between the working folder and them (`./data` by default): created private to
 * the account running the app (0700), and an existing one that this account owns loses its group
 * and other permissions at start, so no other account may list or enter them. Nothing outside the
 * working folder is changed but the data folders themselves, and nothing another account owns.
 */
export function makeDataFoldersPrivate(config: Config): void {
  const folders = [...(config.database.kind === 'pglite' && config.database.dir !== ':memory:' ? [config.database.dir] : []), ...(config.media.kind === 'local' ? [config.media.dir] : [])];
  for (const folder of folders) {
    const full = path.resolve(folder);
    mkdirSync(full, { recursive: true, mode: 0o700 });
    for (const each of [...between(process.cwd(), full), full]) tighten(each);
  }
}

/** The folders below `root` on the way to `target` (`target` excluded); none when it is elsewhere. */
function between(root: string, target: string): string[] {
  const relative = path.relative(root, target);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return [];
  const parts = relative.split(path.sep).slice(0, -1);
  return parts.map((_, i) => path.join(root, ...parts.slice(0, i + 1)));
}

function tighten(folder: string): void {
  const stats = lstatSync(folder);
  if (stats.isSymbolicLink() || !stats.isDirectory() || stats.uid !== process.getuid?.()) return;
  if (stats.mode & 0o077) chmodSync(folder, stats.mode & 0o700);
}
