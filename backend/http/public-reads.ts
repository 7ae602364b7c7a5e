import type { Request, RequestHandler } from 'express';
import { carriesBearer } from './caller.ts';
import { type ApiRoute, type RouteDeps, routerFor } from './route.ts';

/**
 * The cached public reads (routes marked `cached`: a public pin, a page of pins, a public pin's
 * comments), answered before the session and anti-forgery middleware, for a visitor whose anti-forgery cookie this
 * instance has recently found valid (`knowsValidToken`): such an answer is the same for everyone,
 * needs no session, and has no cookie to hand out (docs/api.md). It keeps the API's limit per
 * address and its log line. Any other request — a bearer token, a visitor without a known token
 * (who may need one issued), another method, another path — goes on to the full stack, where it
 * is answered exactly as before; a visitor's first read does, and teaches the instance their token.
 */
export function publicReadsFirst(options: {
  routes: readonly ApiRoute[];
  deps: RouteDeps;
  /** The API's limit per address, counted once the path is one of these reads. */
  limit: RequestHandler;
  knowsValidToken: (req: Request) => boolean;
}): RequestHandler {
  const reads = options.routes.filter((declared) => declared.cached);
  for (const declared of reads) {
    // Answered before any session is loaded: a cached read must be the same for every caller.
    if (declared.method !== 'get' || declared.auth !== 'public') throw new Error(`${declared.path}: a cached route must be a public GET`);
  }
  // Every route in its place (a path another route declares first is not one of these reads).
  const router = routerFor('/api', options.routes, options.deps, { only: (declared) => declared.cached === true, first: [options.limit] });
  return (req, res, next) => {
    // GET and HEAD only: the router would answer OPTIONS for these paths with their GET alone.
    if ((req.method === 'GET' || req.method === 'HEAD') && !carriesBearer(req) && options.knowsValidToken(req)) {
      early.add(req);
      router(req, res, (error?: unknown) => {
        early.delete(req);
        // A read that depends on who asks (a private pin, a user's own list) goes on to the full stack.
        next(error instanceof CallerNeeded ? undefined : error);
      });
    } else next();
  };
}

/** Requests being answered here, before their session is read. */
const early = new WeakSet<Request>();

/** Thrown by a cached route whose answer turns out to depend on who asks: the full stack answers it. */
export class CallerNeeded extends Error {}

/**
 * Who is asking, for the part of a cached route's answer that is not the same for everyone: the
 * caller (undefined: anonymous) once the session is known; before it is, the request leaves this
 * fast path for the full stack (CallerNeeded), which knows.
 */
export function callerOf(req: Request, userId: number | undefined): number | undefined {
  if (early.has(req)) throw new CallerNeeded('who asks is not known yet');
  return userId;
}
