import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import { parseMediaKey } from './media-urls.ts';

// Where stored images live (DESIGN §10): a local folder by default (the embedded mode, and several
// instances on one host sharing it), an S3-compatible bucket for deployments beyond one host
// (s3-storage.ts). Keys are content-addressed (media-urls.ts: mediaKey), so a file is written once
// and never changes: writing it again, from another upload of the same bytes, writes the same bytes.

export interface MediaObject {
  /** Bytes. */
  size: number;
  contentType: string;
}

export interface MediaStream extends MediaObject {
  body: Readable;
}

export interface MediaStorage {
  /** For logs: where the files are. */
  readonly description: string;
  /** Stores the file whole: until it is complete, it is not there at all (never half-written). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file's size and type, or undefined when there is none. */
  stat(key: string): Promise<MediaObject | undefined>;
  /** The file as a stream, with its size and type, or undefined when there is none. */
  get(key: string): Promise<MediaStream | undefined>;
  exists(key: string): Promise<boolean>;
  /** Removes the file; one that is not there is no error (the sweep may run twice). */
  delete(key: string): Promise<void>;
}

/**
 * Keys are only ever the ones mediaKey makes: anything else is a bug (or an attack), never a path.
 * A file's type follows from its key's extension, so a stored file cannot be served as anything else.
 */
export function checkedKey(key: string, contentType?: string): { key: string; contentType: string } {
  const parsed = parseMediaKey(key);
  if (!parsed) throw new Error(`Not a media key: ${JSON.stringify(key)}`);
  if (contentType !== undefined && contentType !== parsed.contentType) throw new Error(`${key} is ${parsed.contentType}, not ${contentType}`);
  return { key, contentType: parsed.contentType };
}

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

/** The configured storage, ready to use. The S3 client is loaded only when a bucket is configured. */
export async function createMediaStorage(config: Config['media']): Promise<MediaStorage> {
  if (config.kind === 's3') {
    const { S3MediaStorage } = await import('./s3-storage.ts');
    return new S3MediaStorage(config);
  }
  const storage = new LocalMediaStorage(config.dir);
  await storage.prepare();
  return storage;
}
