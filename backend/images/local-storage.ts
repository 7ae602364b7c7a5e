import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { checkedKey, type MediaObject, type MediaStorage, type MediaStream } from './storage.ts';

/**
 * Files under one folder, at their key (`ab/<sha256>-236.webp`). A file is written to a temporary
 * name in its final folder, flushed to disk and then renamed into place: rename is atomic within one
 * file system, so a reader (this instance or another sharing the folder) sees no file or the whole
 * file, and a crash leaves at most a temporary file (`.…tmp`, never a key, so never served).
 */
export class LocalMediaStorage implements MediaStorage {
  readonly dir: string;
  readonly description: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
    this.description = `local folder ${this.dir}`;
  }

  /** Creates the folder and checks it can be written: a read-only one stops start-up, not an upload. */
  async prepare(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await access(this.dir, constants.W_OK);
  }

  private pathOf(key: string): string {
    return path.join(this.dir, checkedKey(key).key);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const target = path.join(this.dir, checkedKey(key, contentType).key);
    const folder = path.dirname(target);
    await mkdir(folder, { recursive: true });
    const temporary = path.join(folder, `.${path.basename(target)}.${randomUUID()}.tmp`);
    try {
      const file = await open(temporary, 'wx', 0o644);
      try {
        await file.writeFile(bytes);
        // On disk before the name points at it: after a power cut a row never names an empty file.
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, target);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
  }

  async stat(key: string): Promise<MediaObject | undefined> {
    const { contentType } = checkedKey(key);
    const file = await openIfExists(this.pathOf(key));
    if (!file) return undefined;
    try {
      const stats = await file.stat();
      return stats.isFile() ? { size: stats.size, contentType } : undefined;
    } finally {
      await file.close();
    }
  }

  async get(key: string): Promise<MediaStream | undefined> {
    const { contentType } = checkedKey(key);
    const file = await openIfExists(this.pathOf(key));
    if (!file) return undefined;
    // Size from the open file itself: what is streamed is exactly what was measured.
    const stats = await file.stat().catch(async (error: unknown) => {
      await file.close();
      throw error;
    });
    if (!stats.isFile()) {
      await file.close();
      return undefined;
    }
    return { size: stats.size, contentType, body: file.createReadStream({ autoClose: true }) };
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  async delete(key: string): Promise<void> {
    await unlink(this.pathOf(key)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
  }
}

async function openIfExists(file: string) {
  try {
    return await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
