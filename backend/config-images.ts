import { tmpdir } from 'node:os';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

// The image settings of backend/config.ts (stored images, uploads, picture fetches by URL,
// processing and the per-user image budget), read from the same environment and validated the same
// way. Their contract is docs/images.md.

/** A configuration value that cannot work; config.ts reports it like its own. */
export class ImageConfigError extends Error {}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * Fetching by URL (a pin's picture, a page's pictures, a bulk import's items; safe-fetch.ts). Each
 * is read as FETCH_<name> and under its former name, IMPORT_<name> ("import" now means the bulk
 * imports only); the FETCH_ one wins. Their defaults are applied in imageConfig.
 */
const FETCH_SETTINGS = {
  // The guard refuses non-unicast addresses and ports other than 80/443. Tests and special
  // deployments only (an intranet image host): CIDRs and ports allowed all the same.
  // Comma-separated, empty by default.
  ALLOW_CIDRS: z.string().optional(),
  ALLOW_PORTS: z.string().optional(),
  // A remote server gets this long to send its answer's headers (a host that accepts connections
  // and never answers costs a fetch slot this long, not the whole fetch deadline), and a host
  // that timed out is not asked again for HOST_COOLDOWN_SECONDS (its fetches wait instead).
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(1).max(60).optional(),
  HOST_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).optional(),
  // Fetches one user may have waiting in the queue (more pins with remote images answer 429), and
  // how many of one user's fetches run at once across all instances (the rest of the workers stay
  // free for everybody else).
  PENDING_PER_USER: z.coerce.number().int().positive().optional(),
  CONCURRENCY_PER_USER: z.coerce.number().int().positive().optional(),
};

type Prefixed<P extends string, T> = { [K in keyof T & string as `${P}${K}`]: T[K] };

function prefixed<P extends string, T extends Record<string, z.ZodType>>(prefix: P, shape: T): Prefixed<P, T> {
  return Object.fromEntries(Object.entries(shape).map(([name, type]) => [`${prefix}${name}`, type])) as Prefixed<P, T>;
}

export const IMAGE_ENV = {
  ...prefixed('FETCH_', FETCH_SETTINGS),
  ...prefixed('IMPORT_', FETCH_SETTINGS),
  // Stored images no pin uses (an upload never pinned, a deleted pin's image) are deleted after
  // this long, by the images.sweep job each instance sends this often (backend/images/sweep.ts).
  IMAGE_SWEEP_GRACE_HOURS: positiveInt(24),
  IMAGE_SWEEP_INTERVAL_SECONDS: positiveInt(3600),
  // Stored images: a local folder, unless S3_BUCKET names a bucket.
  MEDIA_DIR: z.string().min(1).default('./data/media'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  // Images being read and thumbnailed at once per process (each holds a libuv thread), how many
  // may wait before an upload is told the server is busy, and how long one image may take.
  // Default: 1 in the embedded mode (one small server: each image being processed holds its file
  // and its decoded pixels, 16 parallel 19 MB uploads added 158 MB at 2 and 90 MB at 1), 2 with
  // services (bench:footprint).
  IMAGE_PROCESS_CONCURRENCY: z.coerce.number().int().positive().optional(),
  IMAGE_PROCESS_QUEUE: positiveInt(20),
  IMAGE_PROCESS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  // The per-user image budget: images (uploads and picture fetches by URL alike) per window.
  // UPLOAD_RATE_LIMIT_PER_USER is its former name, still read.
  IMAGE_BUDGET_PER_USER: z.coerce.number().int().positive().optional(),
  UPLOAD_RATE_LIMIT_PER_USER: z.coerce.number().int().positive().optional(),
  IMAGE_BUDGET_WINDOW_SECONDS: positiveInt(900),
  // Upload bodies being received at once, per instance and per user (beyond: 503 / 429), the
  // deadline for receiving one, and where they are written meanwhile.
  UPLOADS_IN_FLIGHT: positiveInt(16),
  UPLOADS_IN_FLIGHT_PER_USER: positiveInt(4),
  UPLOAD_TIMEOUT_SECONDS: positiveInt(60),
  UPLOAD_TMP_DIR: z.string().min(1).optional(),
};

type ImageEnv = z.output<z.ZodObject<typeof IMAGE_ENV>>;

export interface ImageConfig {
  /**
   * Fetches by URL (a pin's picture, a page's pictures): addresses (CIDRs) and ports allowed
   * although the SSRF guard refuses them (tests and special deployments only: every entry opens
   * the server's own network to user URLs), the remote headers deadline, how long a host that
   * timed out is left alone, and the per-user queue cap and concurrency.
   */
  fetching: { allowCidrs: string[]; allowPorts: number[]; headersTimeoutMs: number; hostCooldownMs: number; pendingPerUser: number; concurrencyPerUser: number };
  /** Stored images no pin uses: kept this long, then deleted by a job sent this often. */
  imageSweep: { graceHours: number; intervalMs: number };
  /** Where stored images are kept: a folder, or an S3-compatible bucket. */
  media:
    | { kind: 'local'; dir: string }
    | {
        kind: 's3';
        bucket: string;
        /** For anything but AWS itself (R2, Garage, SeaweedFS, radosgw, …). */
        endpoint: string | undefined;
        region: string;
        /** Without them the SDK's own chain is used (environment, shared files, an instance role). */
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
        /** `bucket` in the path rather than the host name: what most self-hosted servers need. */
        forcePathStyle: boolean;
      };
  imageProcessing: { concurrency: number; queue: number; timeoutSeconds: number };
  /** Images (uploads and imports) per user per window. */
  imageBudget: { perUser: number; windowMs: number };
  /** Upload bodies in flight per instance and per user, the receiving deadline, the temporary folder. */
  uploads: { inFlight: number; inFlightPerUser: number; timeoutMs: number; tmpDir: string };
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseCidrs(value: string): string[] {
  return splitList(value).map((cidr) => {
    if (!ipaddr.isValidCIDR(cidr)) throw new ImageConfigError(`FETCH_ALLOW_CIDRS: "${cidr}" is not a CIDR (e.g. 10.1.2.0/24, fd00::/8)`);
    return cidr;
  });
}

function parsePorts(value: string): number[] {
  return splitList(value).map((item) => {
    const port = /^\d+$/.test(item) ? Number(item) : NaN;
    if (!(port >= 1 && port <= 65535)) throw new ImageConfigError(`FETCH_ALLOW_PORTS: "${item}" is not a port (1-65535)`);
    return port;
  });
}

/** A bucket when S3_BUCKET is set; S3 settings without one are a mistake, not a local folder. */
function parseMedia(e: ImageEnv): ImageConfig['media'] {
  if (!e.S3_BUCKET) {
    const stray = (['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const).filter((name) => e[name] !== undefined);
    if (stray.length) throw new ImageConfigError(`${stray.join(', ')} set without S3_BUCKET: set S3_BUCKET to store images in a bucket, or unset them to use MEDIA_DIR`);
    return { kind: 'local', dir: e.MEDIA_DIR };
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ImageConfigError("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS SDK's own credentials");
  }
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    // Self-hosted servers mostly ignore the region but the signature needs one.
    region: e.S3_REGION ?? 'us-east-1',
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
  };
}

export function imageConfig(e: ImageEnv, mode: { embedded: boolean }): ImageConfig {
  if (e.UPLOADS_IN_FLIGHT_PER_USER > e.UPLOADS_IN_FLIGHT) throw new ImageConfigError('UPLOADS_IN_FLIGHT_PER_USER cannot be more than UPLOADS_IN_FLIGHT');
  return {
    fetching: {
      allowCidrs: parseCidrs(e.FETCH_ALLOW_CIDRS ?? e.IMPORT_ALLOW_CIDRS ?? ''),
      allowPorts: parsePorts(e.FETCH_ALLOW_PORTS ?? e.IMPORT_ALLOW_PORTS ?? ''),
      headersTimeoutMs: Math.round((e.FETCH_HEADERS_TIMEOUT_SECONDS ?? e.IMPORT_HEADERS_TIMEOUT_SECONDS ?? 5) * 1000),
      hostCooldownMs: (e.FETCH_HOST_COOLDOWN_SECONDS ?? e.IMPORT_HOST_COOLDOWN_SECONDS ?? 60) * 1000,
      pendingPerUser: e.FETCH_PENDING_PER_USER ?? e.IMPORT_PENDING_PER_USER ?? 1000,
      concurrencyPerUser: e.FETCH_CONCURRENCY_PER_USER ?? e.IMPORT_CONCURRENCY_PER_USER ?? 1,
    },
    imageSweep: { graceHours: e.IMAGE_SWEEP_GRACE_HOURS, intervalMs: e.IMAGE_SWEEP_INTERVAL_SECONDS * 1000 },
    media: parseMedia(e),
    imageProcessing: { concurrency: e.IMAGE_PROCESS_CONCURRENCY ?? (mode.embedded ? 1 : 2), queue: e.IMAGE_PROCESS_QUEUE, timeoutSeconds: e.IMAGE_PROCESS_TIMEOUT_SECONDS },
    imageBudget: { perUser: e.IMAGE_BUDGET_PER_USER ?? e.UPLOAD_RATE_LIMIT_PER_USER ?? 1000, windowMs: e.IMAGE_BUDGET_WINDOW_SECONDS * 1000 },
    uploads: {
      inFlight: e.UPLOADS_IN_FLIGHT,
      inFlightPerUser: e.UPLOADS_IN_FLIGHT_PER_USER,
      timeoutMs: e.UPLOAD_TIMEOUT_SECONDS * 1000,
      tmpDir: e.UPLOAD_TMP_DIR ?? tmpdir(),
    },
  };
}
