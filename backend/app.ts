import path from 'node:path';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express, { type Express, type RequestHandler } from 'express';
import type { Store } from 'express-session';
import helmet from 'helmet';
import { clientPage } from './http/client-page.ts';
import { shareTargetFallback } from './http/share-target.ts';
import { SHARE_TARGET_PATH } from '../contract/share-target.ts';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { LIMITS } from '../contract/limits.ts';
import type { Database } from '../db/connect.ts';
import { createAccountSettings } from './account/account-settings.ts';
import { createLoginThrottle } from './auth/login-throttle.ts';
import { AccountStatus, endDisabledSessions } from './auth/disabled-accounts.ts';
import { handshakeSession, membersOnlyApi, membersOnlyHome } from './http/members-only.ts';
import { linkShowsImage, shownPublicly } from './images/link-media.ts';
import { sessionOf } from './auth/auth.service.ts';
import type { Config } from './config.ts';
import type { ServiceContext } from './context.ts';
import type { EventBus } from './bus/event-bus.ts';
import type { AppJobs } from './job-catalog.ts';
import type { JobQueue } from './jobs/queue.ts';
import { createCsrf } from './http/csrf.ts';
import { apiNotFound, errorHandler } from './http/error-handler.ts';
import { healthRoutes } from './http/health.ts';
import { connectSources, type OriginPolicy, type TrustProxy } from './http/origin.ts';
import { createRateLimiters } from './http/rate-limits.ts';
import type { ReadCache } from './http/read-cache.ts';
import { requestLogger } from './http/request-logger.ts';
import { type Reader, ReadYourWrites } from './http/read-your-writes.ts';
import { ReplicaRouting } from '../db/replica.ts';
import { publicReadsFirst } from './http/public-reads.ts';
import { type RouteDeps, routerFor } from './http/route.ts';
import { type MediaAccess, mediaRoutes } from './images/media-route.ts';
import { MEDIA_PATH } from './images/media-urls.ts';
import type { MediaStorage } from './images/storage.ts';
import type { UploadContext } from './http/upload.ts';
import { createCursorCodec } from './paging/cursor.ts';
import { listPins } from './pins/pins.service.ts';
import { sessionMiddleware } from './http/session.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { API_ROUTES } from './routes.ts';
import { callerId, unlessBearer } from './http/caller.ts';
import { bearerAuth } from './tokens/bearer-auth.ts';
import { LastUsedRecorder } from './tokens/last-used.ts';
import { TokenVerifier } from './tokens/token-verifier.ts';

interface AppDeps {
  config: Config;
  database: Database;
  /** A read replica of `database` (DATABASE_REPLICA_URL): read-only routes read it through `reader`. */
  replica?: Database | undefined;
  events: EventBus;
  /** Background jobs: services send them through `ctx.jobs`. */
  jobs: JobQueue<AppJobs>;
  logger: Logger;
  sessionStore: Store;
  /** Public reads kept briefly in process (invalidated by events; see backend/http/read-cache.ts). */
  reads: ReadCache;
  redis?: Redis | undefined;
  /** Where stored images are kept: served under /media/, written by uploads. */
  media: MediaStorage;
  /** Where uploads are received, their deadline, and who may send one now. */
  uploads: UploadContext;
  /** Set when a graceful shutdown starts: /readyz then answers 503. */
  lifecycle?: { shuttingDown: boolean };
}

interface PinboardApp {
  app: Express;
  /** The same session middleware, for the socket handshake to share (and its site-access rules: backend/http/members-only.ts). */
  session: RequestHandler;
  /** Which browser origins may call the API and open sockets (shared with the socket gateway). */
  originPolicy: OriginPolicy;
  /** Personal access tokens: the check's cache (revokes reach every instance) and the "last used" writer. */
  tokens: { verifier: TokenVerifier; lastUsed: LastUsedRecorder };
}

/** How long an instance trusts a token it read (a revoke is told to every instance at once). */
const TOKEN_CACHE_MS = 5_000;
const TOKEN_CACHE_MAX = 50_000;
/** How long an instance trusts that an account is not disabled (the operator's command also ends its sessions at once). */
const ACCOUNT_CACHE_MS = 5_000;

// The demo's pictures (db/demo-images: built by scripts/demo-images.ts, listed in its catalog.json).
const SEED_IMAGES_DIR = path.resolve(import.meta.dirname, '../db/demo-images');

export function createApp(deps: AppDeps): PinboardApp {
  const { config, database, events, logger } = deps;
  const ctx = serviceContext(deps);
  const app = express();
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');

  app.use(requestLogger(logger));
  // JSON and the client's assets compress 10× or more (gzip or brotli, as the client accepts).
  app.use(compression());
  // Express compiles TRUST_PROXY into a function of the peer address; the origin checks reuse it.
  const originPolicy: OriginPolicy = {
    publicOrigins: config.publicOrigins,
    trustProxy: app.get('trust proxy fn') as TrustProxy,
  };
  app.use(securityHeaders(originPolicy));

  app.use(healthRoutes({ database, redis: deps.redis, lifecycle: deps.lifecycle }));

  const session = sessionMiddleware({
    store: deps.sessionStore,
    secret: config.sessionSecret,
    maxAgeMs: config.sessionMaxAgeMs,
  });
  // Members-only sites and disabled accounts (docs/site-access.md).
  const membersOnly = config.site.visibility === 'members';
  const dropDisabled = endDisabledSessions(new AccountStatus(database.db, { ttlMs: ACCOUNT_CACHE_MS, max: TOKEN_CACHE_MAX }), events);

  // Static files first: they need no session, cookie or CSRF work. API paths skip the lookup (a
  // file-system stat per call was 7–10 % of a pin read's CPU in bench:rest's profile).
  app.use('/seed-images', express.static(SEED_IMAGES_DIR, { maxAge: '1d', fallthrough: false }));
  app.use(MEDIA_PATH, ...(membersOnly ? [unlessBearer(session), unlessBearer(dropDisabled), membersMedia(deps)] : [publicMedia(deps)]));
  const indexHtml = path.join(path.resolve(config.staticDir), 'index.html');
  app.use(clientFiles(config.staticDir));
  // The share target when no service worker took it: a redirect to the pin builder, nothing stored.
  app.post(SHARE_TARGET_PATH, shareTargetFallback);

  const csrf = createCsrf(config.sessionSecret, originPolicy);
  const limits = createRateLimiters(config.rateLimits, deps.redis, logger);
  const throttle = createLoginThrottle(config.rateLimits, deps.redis);
  const cursors = createCursorCodec(config.sessionSecret);
  const openApiDocument = buildOpenApiDocument(API_ROUTES);
  const { verifier, lastUsed } = tokenChecks(deps);

  const replicaReads = readsFromReplica(deps, ctx);
  const routeDeps: RouteDeps = {
    ctx,
    reader: replicaReads.reader,
    csrf,
    limits,
    throttle,
    cursors,
    reads: deps.reads,
    originPolicy,
    demoEmail: config.demoLogin ? config.demo.email : undefined,
    media: deps.media,
    bulkImports: config.bulkImports,
    tokens: verifier,
    uploads: deps.uploads,
    site: config.site,
    accounts: createAccountSettings(config, deps.redis),
  };

  app.use(cookieParser());
  // A cached public read by a visitor whose token is known good needs none of what follows (on a
  // members-only site nothing is public: every read waits for the session).
  if (!membersOnly) app.use('/api', publicReadsFirst({ routes: API_ROUTES, deps: routeDeps, limit: limits.apiPerIp, knowsValidToken: csrf.knowsValidToken }));
  // A request with a personal access token is the token's alone: no session, no anti-forgery
  // cookie, nothing set (docs/tokens-and-capture.md).
  app.use(unlessBearer(session));
  app.use(unlessBearer(dropDisabled));
  app.use(unlessBearer(csrf.issue));

  const api = express.Router();
  api.use(limits.apiPerIp);
  api.use(bearerAuth({ verifier, lastUsed, perToken: limits.apiPerToken }));
  if (replicaReads.remember) api.use(replicaReads.remember);
  api.use(express.json({ limit: LIMITS.bodyBytes }));
  api.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  if (membersOnly) api.use(membersOnlyApi);
  // A token cannot be sent by another site's form or image, so it needs no anti-forgery check.
  api.use(unlessBearer(csrf.protect));
  api.use(routerFor('/api', API_ROUTES, routeDeps));
  api.use(apiNotFound);
  app.use('/api', api);

  if (membersOnly) app.use(membersOnlyHome);
  // Client-side routes: every other GET gets the single-page app, so deep links work on reload.
  app.get(
    '/{*path}',
    clientPage(indexHtml, {
      session: (req) => sessionOf(database.db, req.session?.userId, config.site),
      firstPage: (seed, req) => replicaReads.reader(req, (db) => listPins(db, cursors, { order: 'shuffle', seed })),
      onError: (error) => logger.warn({ err: error }, 'page served without its session or first page of pins'),
    }),
  );

  app.use(errorHandler(logger));
  return { app, session: handshakeSession([session, dropDisabled], membersOnly), originPolicy, tokens: { verifier, lastUsed } };
}

/** Personal access tokens: who each is (cached a little while), and when each was last used (written now and then). */
function tokenChecks({ database, config, logger }: AppDeps) {
  return {
    verifier: new TokenVerifier(database.db, { ttlMs: TOKEN_CACHE_MS, max: TOKEN_CACHE_MAX }),
    lastUsed: new LastUsedRecorder(database.db, {
      intervalMs: config.tokens.lastUsedFlushMs,
      onError: (error) => logger.warn({ err: error }, 'token last-used times not written'),
    }),
  };
}

/** What the services are given: the database, the bus, the job sender, the fetch settings. */
function serviceContext({ config, database, events, jobs }: AppDeps): ServiceContext {
  const { allowCidrs, allowPorts, headersTimeoutMs, pendingPerUser } = config.fetching;
  return { db: database.db, events, jobs: jobs.sender, fetching: { allow: { cidrs: allowCidrs, ports: allowPorts }, headersTimeoutMs, pendingPerUser } };
}

/** Stored images on an open site: a picture only private pins show is for those who may see them. */
function publicMedia({ media, database }: AppDeps): RequestHandler {
  return mediaRoutes(media, { shownPublicly: (sha256) => shownPublicly(database.db, sha256) });
}

/** Stored images on a members-only site: for members, and for a board link's visitors (its pictures). */
function membersMedia({ media, database }: AppDeps): RequestHandler {
  const access: MediaAccess = async (req, sha256) => callerId(req) !== undefined || (typeof req.query.link === 'string' && linkShowsImage(database.db, req.query.link, sha256));
  return mediaRoutes(media, { access });
}

/** Helmet's headers, with a content security policy that lets pins show images from anywhere. */
function securityHeaders(originPolicy: OriginPolicy): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        // Pins point at images anywhere on the web.
        'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        'connect-src': ["'self'", (req) => connectSources(req, originPolicy).join(' ')],
        // Local http:// development must not have its requests upgraded to https.
        'upgrade-insecure-requests': null,
      },
    },
  });
}

/** The built client's files (not index.html: the page route serves it), never looked up for an API path. */
function clientFiles(dir: string): RequestHandler {
  const serveClient = express.static(path.resolve(dir), {
    index: false,
    maxAge: '1h',
    // The service worker keeps its one name: browsers must check it on every visit (docs/installable-app.md).
    setHeaders: (res, file) => {
      if (path.basename(file) === 'sw.js') res.setHeader('Cache-Control', 'no-cache');
    },
  });
  return (req, res, next) => {
    if (req.path.startsWith('/api/')) next();
    else serveClient(req, res, next);
  };
}

/**
 * With a replica (DATABASE_REPLICA_URL), the reader sends reads there unless the caller's own
 * writes are not on it yet, and `remember` hands every write's position back; without one, every
 * read is the primary's, as it always was.
 */
function readsFromReplica(deps: AppDeps, ctx: ServiceContext): { reader: Reader; remember?: RequestHandler } {
  const { replica, config, logger } = deps;
  if (!replica || !config.replica) return { reader: (_req, read) => read(ctx.db) };
  const routing = new ReplicaRouting(deps.database, replica, {
    maxLagMs: config.replica.maxLagMs,
    onDown: (error) => logger.warn({ err: error }, 'read replica unused: reads go to the primary'),
  });
  const readYourWrites = new ReadYourWrites(routing, { maxLagMs: config.replica.maxLagMs });
  return { reader: readYourWrites.reader, remember: readYourWrites.remember };
}
