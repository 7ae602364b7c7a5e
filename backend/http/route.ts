import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { NamedEndpoint } from '../../contract/endpoints.ts';
import type { ServiceContext } from '../context.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { unauthorized } from '../errors.ts';
import { callerId, refuseTokens } from './caller.ts';
import type { Csrf } from './csrf.ts';
import { liftErrorFields } from './error-handler.ts';
import type { OriginPolicy } from './origin.ts';
import type { RateLimiters } from './rate-limits.ts';
import type { ReadCache } from './read-cache.ts';
import type { Reader } from './read-your-writes.ts';
import './session.ts';
import { AlreadyAnswered, fileReceiver, type ReceivedUpload, type UploadContext, type UploadedFile, type UploadSpec } from './upload.ts';
import { parseBody, parseId, parseQuery } from './validate.ts';

// A route implements an endpoint of the contract (contract/endpoints.ts: its method, path, input
// schemas and success answers, which the client's calls are typed from) and adds, beside its
// handler, who may call it, its documentation and its other answers. The router (routerFor), the
// OpenAPI document (backend/openapi.ts) and the bad-input and fuzz tests all read the result.

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Auth = 'user' | 'public';
type Query = z.ZodObject | undefined;
type Body = z.ZodType | undefined;
type Upload = UploadSpec | undefined;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * A success schema, or one with its own description (the default names the status) and media type
 * (the default is JSON; a download says its own, e.g. `application/zip`).
 */
type Responses = Partial<Record<number, z.ZodType | { schema: z.ZodType; description: string; contentType?: string }>>;

/**
 * What the app hands every handler: the services' context and the request-level machinery. The
 * app adds its features' own dependencies to this interface in backend/route-deps.ts (declaration
 * merging, as express-session's SessionData), so this layer names no feature.
 */
export interface RouteDeps {
  ctx: ServiceContext;
  csrf: Csrf;
  limits: RateLimiters;
  originPolicy: OriginPolicy;
  /** Signs and reads the cursors of paged lists. */
  cursors: CursorCodec;
  /** Public reads kept briefly in process, invalidated by the events of their changes. */
  reads: ReadCache;
  /**
   * Runs a read-only query on the read replica when there is one and it has the caller's own
   * writes, else on the primary (`ctx.db`): read-your-writes.ts.
   */
  reader: Reader;
  /** Where uploads are received, their deadline, and who may send one now (upload.ts). */
  uploads: UploadContext;
}

interface RouteInfo<P extends string = string, A extends Auth = Auth, Q extends Query = Query, B extends Body = Body, U extends Upload = Upload> {
  method: Method;
  /** The full path as OpenAPI writes it, e.g. '/api/pins/{id}'. Every `{param}` is a row id. */
  path: P;
  summary: string;
  /** 'user': anyone not signed in gets 401, before any input is looked at. */
  auth: A;
  query?: Q;
  body?: B;
  /**
   * Takes `multipart/form-data` with one file instead of a JSON body (backend/http/upload.ts). It is
   * read after the sign-in, id and query checks, once `uploads.admit` has let the sender in; the
   * route must be 'user'.
   */
  upload?: U;
  responses: Responses;
  /**
   * What the route itself can answer besides the statuses its declaration implies (400 for any
   * input, 401 for 'user', 403 for a write or `csrfOnGet`, 413 for a body, 422 when idempotent,
   * and 429, 500 and 503 for every call).
   */
  errors?: number[];
  /** Takes an optional Idempotency-Key header (contract/idempotency.ts). */
  idempotent?: true;
  /**
   * Counts against the per-address limit on attempts to sign in or up. Only attempts do: the
   * session check runs on every page load, and a shared address (an office, a carrier NAT) must
   * not run out of it.
   */
  attempt?: true;
  /** A GET that changes state (logout) needs the X-XSRF-TOKEN header like a write. */
  csrfOnGet?: true;
  /**
   * Only a signed-in browser session may call it (token management, sign-in and sign-out): a
   * request with a personal access token gets 403, whatever its scope.
   */
  sessionOnly?: true;
  /**
   * Error answers (below 500) of this route also carry these keys of `fields` at the top level of
   * the body, for clients that read the body as a flat object of field messages.
   */
  errorFieldsAtTop?: readonly string[];
  /**
   * A public read answered through the instance's read cache (backend/http/read-cache.ts): it
   * carries an ETag, and If-None-Match with the current one gets 304 and no body.
   */
  cached?: true;
}

type ParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamName<Rest> : never;

/** What a handler gets: validated input, the caller, and the app's dependencies. */
type RouteCall<P extends string, A extends Auth, Q extends Query, B extends Body, U extends Upload> = RouteDeps & {
  req: Request;
  res: Response;
  params: Record<ParamName<P>, number>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /** The uploaded file, on a route that declares `upload`. */
  file: U extends UploadSpec ? UploadedFile : undefined;
  userId: A extends 'user' ? number : number | undefined;
  /** This call with its ids filled in, e.g. `POST /api/comments/pins/7/comments`. */
  operation: string;
};

export interface ApiRoute extends RouteInfo {
  /**
   * Checks the caller and the input in a fixed order (auth, ids, query, body or file), then handles. The
   * route's own middlewares (`attempt`, `csrfOnGet`) have run before it.
   */
  run(req: Request, res: Response, deps: RouteDeps): Promise<void>;
}

/**
 * The Cache-Control of an answer that depends on who is asking: kept by no cache, shared or the
 * browser's. It is the answer of every call by a signed-in or token caller, and of every route
 * that needs one or signs one in or out (its own answer names the user), unless the route sets
 * its own: the cached public reads (read-cache.ts) answer every caller the same bytes.
 */
export const PRIVATE_ANSWER = 'private, no-store';

export const paramNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/** What the contract's endpoint says of a route: its method, path, input schemas and success answers. */
type FromContract = 'method' | 'path' | 'query' | 'body' | 'responses' | 'idempotent';
type QueryOf<E> = E extends { query: infer Q extends z.ZodObject } ? Q : undefined;
type BodyOf<E> = E extends { body: infer B extends z.ZodType } ? B : undefined;

/**
 * Implements an endpoint of the contract; the handler's input is typed from its path and schemas
 * and the route's auth. A route that takes a file gives its upload's limits here.
 */
export function route<const E extends NamedEndpoint, A extends Auth, U extends Upload = undefined>(
  endpoint: E,
  spec: Omit<RouteInfo<E['path'], A, QueryOf<E>, BodyOf<E>, U>, FromContract> & { handler: (call: RouteCall<E['path'], A, QueryOf<E>, BodyOf<E>, U>) => Promise<void> },
): ApiRoute {
  const { handler, ...own } = spec;
  const { upload: takesFile, ...contract } = endpoint;
  const info: RouteInfo = { ...own, ...contract };
  if ((takesFile === true) !== (info.upload !== undefined)) throw new Error(`${info.path}: the contract and the route disagree on whether it takes a file`);
  if (info.body && info.upload) throw new Error(`${info.path}: a route takes a JSON body or an upload, not both`);
  // Worked out once per route, not per request.
  const names = paramNames(info.path);
  const verb = info.method.toUpperCase();
  const receiveFile = info.upload ? fileReceiver(info.upload) : undefined;
  if (receiveFile && info.auth !== 'user') throw new Error(`${info.path}: an upload route must be signed in`);
  return {
    ...info,
    async run(req, res, deps) {
      const userId = callerId(req);
      if (userId !== undefined || info.auth === 'user' || info.sessionOnly) res.setHeader('Cache-Control', PRIVATE_ANSWER);
      if (info.auth === 'user' && userId === undefined) throw unauthorized();
      const params: Record<string, number> = {};
      for (const name of names) params[name] = parseId(req, name);
      const query = info.query ? parseQuery(info.query, req) : undefined;
      const body = info.body ? parseBody(info.body, req) : undefined;
      let upload: ReceivedUpload | undefined;
      try {
        if (receiveFile) upload = await receiveFile(req, res, deps.uploads, userId as number);
      } catch (error) {
        // Refused (and answered) while receiving, or the sender went away: nothing more to send.
        if (error instanceof AlreadyAnswered) return;
        throw error;
      }
      const operation = names.length ? `${verb} ${info.path.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]))}` : `${verb} ${info.path}`;
      try {
        await handler({ ...deps, req, res, params, query, body, file: upload?.file, userId, operation } as RouteCall<E['path'], A, QueryOf<E>, BodyOf<E>, U>);
      } finally {
        await upload?.dispose();
      }
    },
  };
}

/**
 * A router for routes whose paths start with `base` ('/api'), to be mounted there. It is a router of
 * their own so that Express answers OPTIONS for a declared path (with Allow) at the end of it,
 * before the API's catch-all 404. Express routes loosely, so a trailing slash is optional:
 * '/api/pins/' answers '/api/pins' too.
 */
export function routerFor(
  base: string,
  routes: readonly ApiRoute[],
  deps: RouteDeps,
  options: {
    /** Only these routes are served: a request that matches another one first leaves the router. */
    only?: (declared: ApiRoute) => boolean;
    /** What runs before a served route's own middlewares, once its path has matched. */
    first?: readonly RequestHandler[];
  } = {},
): Router {
  const router = express.Router();
  for (const declared of routes) {
    if (!declared.path.startsWith(`${base}/`)) throw new Error(`${declared.path} is not under ${base}`);
    const path = declared.path.slice(base.length).replace(/\{(\w+)\}/g, ':$1');
    if (options.only && !options.only(declared)) {
      // Declared all the same, in its place: '/pins/lookup' must not fall to '/pins/:id'.
      router[declared.method](path, (_req, _res, next) => next('router'));
      continue;
    }
    const before: RequestHandler[] = [...(options.first ?? [])];
    if (declared.sessionOnly) before.push(refuseTokens);
    if (declared.errorFieldsAtTop) before.push(liftErrorFields(declared.errorFieldsAtTop));
    if (declared.attempt) before.push(deps.limits.authPerIp);
    if (declared.csrfOnGet) before.push(deps.csrf.requireToken);
    router[declared.method](path, ...before, (req, res) => declared.run(req, res, deps));
  }
  return router;
}
