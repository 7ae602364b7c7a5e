import type { Config } from '../config.ts';
import { LocalMediaStorage } from './local-storage.ts';
import type { MediaStorage } from './storage.ts';

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
