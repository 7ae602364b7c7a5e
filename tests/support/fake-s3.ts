import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

// No S3 server runs on this machine: the S3 storage driver is tested against s3rver, a fake that
// speaks the S3 REST API over HTTP and keeps objects in a folder. It checks what a real S3 does not
// always check alike (signatures loosely, no consistency quirks): a pass here says the driver speaks
// S3 correctly, not that a given provider behaves exactly so.

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  /** The environment that points the app at it (S3_*). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startFakeS3(bucket = 'pinboard-media'): Promise<FakeS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'pinboard-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      // s3rver's fixed keys.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
