import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import { checkedKey, type MediaObject, type MediaStorage, type MediaStream } from './storage.ts';

// Stored images in an S3-compatible bucket (AWS S3, Cloudflare R2, Garage, SeaweedFS, Ceph's radosgw,
// …), for deployments beyond one host: every instance reads and writes the same files. The app
// still serves them itself under /media/ (same-site URLs, one caching policy); a CDN in front of
// /media/ takes the load off, as the files never change.

type S3Config = Extract<Config['media'], { kind: 's3' }>;

/** The same header the app sends, so a bucket exposed directly (or through a CDN) caches alike. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export class S3MediaStorage implements MediaStorage {
  readonly description: string;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.description = `S3 bucket ${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''}`;
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      // Without keys, the SDK's own chain (environment, shared files, an instance or task role).
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // A few quick retries for a passing error; a dead endpoint fails the request, not the process.
      maxAttempts: 3,
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    // An object appears whole when the PUT completes: never half-written.
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkedKey(key, contentType).key,
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: contentType,
        CacheControl: IMMUTABLE,
      }),
    );
  }

  async stat(key: string): Promise<MediaObject | undefined> {
    const { contentType } = checkedKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<MediaStream | undefined> {
    const { contentType } = checkedKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      // In Node the SDK's body is an http.IncomingMessage: a Readable.
      if (!(object.Body instanceof Readable)) throw new Error(`S3 GetObject for ${key} returned no stream`);
      return { size: object.ContentLength ?? 0, contentType, body: object.Body };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of a missing key with success too.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkedKey(key).key }));
  }
}

/** HEAD answers a bare 404 ("NotFound"), GET a "NoSuchKey" error. */
function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException) || error.name === 'NoSuchBucket') return false;
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404;
}
