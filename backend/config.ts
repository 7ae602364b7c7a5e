import { z } from 'zod';
import { IMAGE_ENV, type ImageConfig, imageConfig, ImageConfigError } from './config-images.ts';
import { OCR_LANGUAGE_CODE, ocrLanguageFile } from './images/seen/ocr-languages.ts';

// All configuration is read and validated here, once. A bad value stops start-up with a message
// naming the variable, instead of failing later in some request.

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me-0123456789';
/** The demo's default password: printed in the README, so production refuses it everywhere. */
export const DEV_DEMO_PASSWORD = 'demo-password';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  // A streaming replica of DATABASE_URL for reads (docs/operations.md#a-read-replica), and how far
  // behind it may be before reads go to the primary.
  DATABASE_REPLICA_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  REPLICA_MAX_LAG_MS: positiveInt(5000),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  // A Redis Cluster's seed nodes, comma-separated `redis://host:port`: when set, used instead of REDIS_URL.
  REDIS_CLUSTER_URLS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^rediss?$/ })).min(1, 'at least one redis:// URL'))
    .optional(),
  SOCKET_CHANNEL: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'letters, digits and _ . : - only')
    .default('pinboard'),
  PGLITE_DIR: z.string().default('./data/pglite'),
  // Postgres settings of the embedded database over db/pglite.ts' own (`shared_buffers=16MB`):
  // comma-separated name=value pairs.
  PGLITE_SETTINGS: z
    .string()
    .regex(/^([a-z_]+=[A-Za-z0-9_.]+(,[a-z_]+=[A-Za-z0-9_.]+)*)?$/, 'comma-separated name=value pairs')
    .default(''),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_SESSION_SECRET),
  SESSION_MAX_AGE_HOURS: positiveInt(24 * 14),
  SESSION_MEMORY_MAX: positiveInt(10_000),
  SOCKET_SESSION_CHECK_SECONDS: positiveInt(60),
  SOCKETS_PER_ADDRESS: positiveInt(50),
  SOCKETS_PER_SESSION: positiveInt(20),
  SOCKET_MESSAGES_PER_WINDOW: positiveInt(30),
  SOCKET_MESSAGE_WINDOW_SECONDS: positiveInt(10),
  SOCKET_REFUSED_MESSAGES_BEFORE_DISCONNECT: positiveInt(10),
  // Presence (docs/presence.md): entries expire PRESENCE_TTL_SECONDS after their last refresh; each
  // instance refreshes its sockets' entries every PRESENCE_HEARTBEAT_SECONDS. A crashed instance's
  // viewers are gone from the counts within TTL + heartbeat (60 s by default).
  PRESENCE_TTL_SECONDS: z.coerce.number().min(1).max(3600).default(45),
  PRESENCE_HEARTBEAT_SECONDS: z.coerce.number().min(0.5).max(1200).default(15),
  DEMO_EMAIL: z.email().default('demo@pinboard.test'),
  DEMO_USERNAME: z.string().min(3).max(40).default('demo'),
  DEMO_PASSWORD: z.string().min(8).default(DEV_DEMO_PASSWORD),
  DEMO_LOGIN: z.enum(['true', 'false']).optional(),
  // Who may see the site and who may join it (docs/site-access.md).
  SITE_VISIBILITY: z.enum(['public', 'members']).default('public'),
  SIGNUPS: z.enum(['open', 'invite', 'closed']).default('open'),
  AUTO_MIGRATE: z.enum(['true', 'false']).optional(),
  AUTO_SEED: z.enum(['true', 'false']).optional(),
  TRUST_PROXY: z.string().default('false'),
  PUBLIC_ORIGIN: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(15 * 60),
  AUTH_RATE_LIMIT_PER_IP: positiveInt(200),
  LOGIN_FAILURES_PER_ADDRESS: positiveInt(10),
  LOGIN_FAILURES_PER_ACCOUNT: positiveInt(10),
  LOGIN_DELAY_MAX_SECONDS: positiveInt(10),
  LOGIN_QUEUE_MAX_SECONDS: positiveInt(30),
  PASSWORD_HASH_CONCURRENCY: positiveInt(2),
  PASSWORD_HASH_QUEUE: positiveInt(100),
  SESSIONS_PER_USER: positiveInt(20),
  SESSIONS_PER_ADDRESS: positiveInt(100),
  // The general limit, a flood guard, has a short window of its own. 5,000 calls per 10 s is
  // 500/s per address: a browser session makes a few calls a second and at most ~60 at once (a
  // resync after a reconnect), so even a hundred sessions behind one office or carrier address
  // stay far below it; a script that waits for each answer would need every answer within 2 ms
  // for 10 s to reach it, which no page of pins over a network gets. A flood of many connections
  // flat out (thousands of calls/s) meets it within a few seconds, and its 429s say to retry
  // within 10 s. The auth limits keep RATE_LIMIT_WINDOW_SECONDS.
  API_RATE_LIMIT_WINDOW_SECONDS: positiveInt(10),
  API_RATE_LIMIT_PER_IP: positiveInt(5_000),
  // Personal access tokens (docs/tokens-and-capture.md): calls per token per API window (besides
  // the per-address limit), and how often each instance writes the tokens' "last used" times.
  API_RATE_LIMIT_PER_TOKEN: positiveInt(2_000),
  TOKEN_LAST_USED_FLUSH_SECONDS: z.coerce.number().min(0.1).max(3600).default(60),
  STATIC_DIR: z.string().default('./dist/public'),
  // Where an imported ZIP waits, whole, for its items (docs/import-export.md): a folder of one
  // import's own under it, removed once the import is over. Instances that share a database must
  // share it (like MEDIA_DIR), as any of them may run an import's items. A user may have this many
  // imports queued or running, holding this much disk (their archives) between them.
  IMPORT_DIR: z.string().min(1).default('./data/imports'),
  IMPORTS_OPEN_PER_USER: positiveInt(3),
  IMPORT_DISK_PER_USER_MB: positiveInt(400),
  // Background jobs (backend/jobs/): whether this instance runs handlers (every instance can send),
  // how many at once per job type, how long one attempt may run before it counts as failed (and a
  // job whose worker died runs again), and how often an idle worker looks for new jobs.
  JOB_WORKERS: z.enum(['true', 'false']).default('true'),
  JOB_CONCURRENCY: positiveInt(2),
  JOB_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(60),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
  // The change log (docs/change-log.md): how long a client may be away and still catch up with one
  // GET /api/changes (older rows are pruned; a client from before them refetches its screens),
  // how often each instance sends the pruning job, and how often it tells its sockets the log's
  // head while the log moves (a client behind it pulls what it missed: see backend/realtime/head.ts).
  CHANGES_RETENTION_HOURS: positiveInt(24),
  CHANGES_PRUNE_INTERVAL_SECONDS: positiveInt(600),
  CHANGES_HEAD_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  // Forgotten passwords (docs/accounts.md): the SMTP server that mails reset links (without it an
  // operator hands links out), the sender, and how many reset mails one address may be sent per
  // RATE_LIMIT_WINDOW_SECONDS.
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Pinboard <no-reply@pinboard.invalid>'),
  PASSWORD_RESETS_PER_EMAIL: positiveInt(5),
  // Stored images, uploads, picture fetches by URL, image processing and the image budget.
  ...IMAGE_ENV,
  // The languages text in pictures is read in: Tesseract codes joined by + (eng+fra), each from its
  // installed npm package @tesseract.js-data/<code> (docs/images.md "What is seen in a picture").
  OCR_LANGS: z
    .string()
    .regex(/^[a-z]{3}(_[a-z]+)?(\+[a-z]{3}(_[a-z]+)?)*$/, 'Tesseract language codes joined by + (e.g. eng or eng+fra)')
    .default('eng'),
});

type Env = z.infer<typeof EnvSchema>;

/**
 * The validated configuration: what `toConfig` maps the environment to (its fields say what each
 * is for), so the shape is written once.
 */
export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {}

/** PGLITE_SETTINGS' `name=value,…` as an object. */
function parseSettings(value: string): Record<string, string> {
  return Object.fromEntries(value ? value.split(',').map((pair) => pair.split('=') as [string, string]) : []);
}

/** Express's `trust proxy` takes a boolean, a hop count or a list of addresses. */
function parseTrustProxy(value: string, env: Env['NODE_ENV']): boolean | number | string {
  if (value === 'true') {
    // Trusting every peer lets any client write its own X-Forwarded-For and dodge every
    // per-address limit; in production the proxies must be named (hop count or addresses).
    if (env === 'production') {
      throw new ConfigError('TRUST_PROXY=true is refused when NODE_ENV=production: give a hop count (e.g. 1) or the proxy addresses (e.g. loopback, 10.0.0.0/8)');
    }
    return true;
  }
  if (value === 'false' || value === '' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

function parseOrigins(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(',').map((item) => {
    const origin = item.trim();
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new ConfigError(`PUBLIC_ORIGIN: "${origin}" is not a URL`);
    }
    return url.origin;
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production') {
    if (e.SESSION_SECRET === DEV_SESSION_SECRET) {
      throw new ConfigError('SESSION_SECRET must be set to a secret value when NODE_ENV=production');
    }
    if (e.DEMO_PASSWORD === DEV_DEMO_PASSWORD) {
      throw new ConfigError('DEMO_PASSWORD must be set to a secret value when NODE_ENV=production');
    }
  }
  // A reset link is mailed to the site's own address; without PUBLIC_ORIGIN it would be the one the
  // request named in its Host header, which anyone can set (password reset poisoning).
  if (e.NODE_ENV === 'production' && e.SMTP_URL && !e.PUBLIC_ORIGIN) {
    throw new ConfigError('PUBLIC_ORIGIN must be set when SMTP_URL is set and NODE_ENV=production: reset links are mailed to that address');
  }
  // A queue shorter than one delay would refuse every slowed attempt: the owner could never get in.
  if (e.LOGIN_QUEUE_MAX_SECONDS < e.LOGIN_DELAY_MAX_SECONDS) {
    throw new ConfigError('LOGIN_QUEUE_MAX_SECONDS must be at least LOGIN_DELAY_MAX_SECONDS');
  }
  // Refreshed at least twice within the TTL, so one late heartbeat does not drop anybody.
  if (e.PRESENCE_HEARTBEAT_SECONDS * 2 > e.PRESENCE_TTL_SECONDS) {
    throw new ConfigError('PRESENCE_HEARTBEAT_SECONDS must be at most half of PRESENCE_TTL_SECONDS');
  }
  const ocrLangs = [...new Set(e.OCR_LANGS.split('+'))];
  const missing = ocrLangs.filter((code) => !OCR_LANGUAGE_CODE.test(code) || !ocrLanguageFile(code));
  if (missing.length) {
    throw new ConfigError(`OCR_LANGS: no language data installed for ${missing.join(', ')}: install @tesseract.js-data/${missing[0]} (npm) or leave it out`);
  }
  if (e.DATABASE_REPLICA_URL !== undefined && e.DATABASE_URL === undefined) {
    throw new ConfigError('DATABASE_REPLICA_URL needs DATABASE_URL: the embedded database has no replica');
  }
  let images: ImageConfig;
  try {
    images = imageConfig(e, { embedded: e.DATABASE_URL === undefined });
  } catch (error) {
    if (error instanceof ImageConfigError) throw new ConfigError(error.message);
    throw error;
  }
  return toConfig(e, images, ocrLangs);
}

/** The environment, validated, as the app reads it. */
function toConfig(e: Env, images: ImageConfig, ocrLangs: string[]) {
  const embedded = e.DATABASE_URL === undefined;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL ? { kind: 'postgres' as const, url: e.DATABASE_URL } : { kind: 'pglite' as const, dir: e.PGLITE_DIR, settings: parseSettings(e.PGLITE_SETTINGS) },
    /** Reads from a replica of `database` (services mode only), unused past `maxLagMs` behind. */
    replica: e.DATABASE_REPLICA_URL ? { url: e.DATABASE_REPLICA_URL, maxLagMs: e.REPLICA_MAX_LAG_MS } : undefined,
    redisUrl: e.REDIS_URL,
    /** A Redis Cluster's seed nodes (REDIS_CLUSTER_URLS); when set, REDIS_URL is not used (docs/operations.md). */
    redisClusterUrls: e.REDIS_CLUSTER_URLS,
    /**
     * The Redis pub/sub channel the instances of one deployment share for live events: deployments
     * (or test servers) sharing one Redis must not hear each other's events.
     */
    socketChannel: e.SOCKET_CHANNEL,
    sessionSecret: e.SESSION_SECRET,
    sessionMaxAgeMs: e.SESSION_MAX_AGE_HOURS * 3600_000,
    /** How often open sockets re-check that their session still exists (expiry, removal). */
    socketSessionCheckMs: e.SOCKET_SESSION_CHECK_SECONDS * 1000,
    /** Per instance: sockets per client address and per signed-in session, and each socket's message budget. */
    sockets: {
      perAddress: e.SOCKETS_PER_ADDRESS,
      perSession: e.SOCKETS_PER_SESSION,
      messagesPerWindow: e.SOCKET_MESSAGES_PER_WINDOW,
      windowMs: e.SOCKET_MESSAGE_WINDOW_SECONDS * 1000,
      refusedBeforeDisconnect: e.SOCKET_REFUSED_MESSAGES_BEFORE_DISCONNECT,
    },
    /** Presence entries' lifetime without a refresh, and how often each instance refreshes its own. */
    presence: { ttlMs: Math.round(e.PRESENCE_TTL_SECONDS * 1000), heartbeatMs: Math.round(e.PRESENCE_HEARTBEAT_SECONDS * 1000) },
    sessionMemoryMax: e.SESSION_MEMORY_MAX,
    /** Signed-in sessions one user may hold in the embedded store; a new one ends their oldest. */
    sessionsPerUser: e.SESSIONS_PER_USER,
    /** Embedded store only: sessions one client address may hold. */
    sessionsPerAddress: e.SESSIONS_PER_ADDRESS,
    /** argon2 runs on libuv's 4 threads, which also serve files: at most this many at once. */
    passwordHashing: {
      concurrency: e.PASSWORD_HASH_CONCURRENCY,
      queue: e.PASSWORD_HASH_QUEUE,
      // A database seeded outside production keeps the default demo password: it must not sign in here.
      refused: e.NODE_ENV === 'production' ? [DEV_DEMO_PASSWORD] : [],
    },
    demo: { email: e.DEMO_EMAIL.toLowerCase(), username: e.DEMO_USERNAME, password: e.DEMO_PASSWORD },
    /**
     * POST /api/auth/demo signs in as the demo account without a password. On where the demo data
     * is (the embedded mode seeds it); a deployment opts in.
     */
    demoLogin: e.DEMO_LOGIN ? e.DEMO_LOGIN === 'true' : embedded,
    /** Members-only sites and who may sign up (docs/site-access.md); the client learns both from the session check. */
    site: { visibility: e.SITE_VISIBILITY, signups: e.SIGNUPS },
    // The embedded mode sets itself up; with services, `npm run db:migrate` / `db:seed` do it.
    autoMigrate: e.AUTO_MIGRATE ? e.AUTO_MIGRATE === 'true' : embedded,
    autoSeed: e.AUTO_SEED ? e.AUTO_SEED === 'true' : embedded,
    trustProxy: parseTrustProxy(e.TRUST_PROXY, e.NODE_ENV),
    publicOrigins: parseOrigins(e.PUBLIC_ORIGIN),
    logLevel: e.LOG_LEVEL,
    rateLimits: {
      /** The window of the auth limits and of the sign-in throttle. */
      windowMs: e.RATE_LIMIT_WINDOW_SECONDS * 1000,
      authPerIp: e.AUTH_RATE_LIMIT_PER_IP,
      loginFailuresPerAddress: e.LOGIN_FAILURES_PER_ADDRESS,
      loginFailuresPerAccount: e.LOGIN_FAILURES_PER_ACCOUNT,
      loginDelayMaxMs: e.LOGIN_DELAY_MAX_SECONDS * 1000,
      /** How far ahead a slowed account's next sign-in slot may be; an attempt beyond it gets 429. */
      loginQueueMaxMs: e.LOGIN_QUEUE_MAX_SECONDS * 1000,
      /** The general API limit: any call per client address per `apiWindowMs`. */
      apiPerIp: e.API_RATE_LIMIT_PER_IP,
      apiWindowMs: e.API_RATE_LIMIT_WINDOW_SECONDS * 1000,
      /** Any call with one personal access token per `apiWindowMs`. */
      apiPerToken: e.API_RATE_LIMIT_PER_TOKEN,
      /**
       * Whose counters these are in a shared Redis: the deployment's SOCKET_CHANNEL. Deployments (and
       * test servers, and benchmarks) on one Redis count one client address apart.
       */
      deployment: e.SOCKET_CHANNEL,
    },
    staticDir: e.STATIC_DIR,
    /** Bulk imports: where an imported ZIP waits for its items, and what one user may have open. */
    bulkImports: { dir: e.IMPORT_DIR, openPerUser: e.IMPORTS_OPEN_PER_USER, diskPerUserBytes: e.IMPORT_DISK_PER_USER_MB * 1024 * 1024 },
    /** Personal access tokens: how often "last used" times are written. */
    tokens: { lastUsedFlushMs: Math.round(e.TOKEN_LAST_USED_FLUSH_SECONDS * 1000) },
    jobs: {
      /** Run job handlers on this instance (JOB_WORKERS); every instance can send jobs. */
      workers: e.JOB_WORKERS === 'true',
      /** Handlers of one job type running at once on this instance. */
      concurrency: e.JOB_CONCURRENCY,
      /** How long one attempt may run, unless its job type says otherwise. */
      leaseSeconds: e.JOB_LEASE_SECONDS,
      /** How often an idle worker looks for a job (a send on this instance wakes it at once). */
      pollSeconds: e.JOB_POLL_SECONDS,
    },
    /** The change log: retention, and the per-instance pruning and head intervals. */
    changes: {
      retentionHours: e.CHANGES_RETENTION_HOURS,
      pruneIntervalMs: e.CHANGES_PRUNE_INTERVAL_SECONDS * 1000,
      headIntervalMs: e.CHANGES_HEAD_INTERVAL_SECONDS * 1000,
    },
    /** Mail (reset links): the SMTP server's URL (none: links only through the operator command) and the sender. */
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    /** Reset mails one email address may be sent per `rateLimits.windowMs`. */
    passwordResetsPerEmail: e.PASSWORD_RESETS_PER_EMAIL,
    /** Text in pictures: the languages it is read in (backend/images/seen/read-text.ts). */
    ocr: { langs: ocrLangs },
    ...images,
  };
}
