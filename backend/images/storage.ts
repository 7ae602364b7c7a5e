import type { Readable } from 'node:stream';
import { parseMediaKey } from './media-urls.ts';

// Where stored images live (docs/images.md): a local folder by default (local-storage.ts: the embedded
// mode, and several instances on one host sharing it), an S3-compatible bucket for deployments beyond one host
// (s3-storage.ts). Keys are content-addressed (media-urls.ts: mediaKey), so a file is written once
// and never changes: writing it again, from another upload of the same bytes, writes the same bytes.
// create-storage.ts opens the configured one.

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
