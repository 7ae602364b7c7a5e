import { createHmac, randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { doubleCsrf } from 'csrf-csrf';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';
import { isAllowedOrigin, type OriginPolicy } from './origin.ts';
import { SESSION_COOKIE } from './session.ts';

const CSRF_COOKIE = 'XSRF-TOKEN';
const CSRF_HEADER = 'x-xsrf-token';
/** The same token under the name some clients (the SPEC's origin app) send it by. */
const CSRF_HEADER_ALIAS = 'xsrf-token';
/** A random id for visitors without a session, so their token is bound to something stable. */
const ANON_COOKIE = 'pinboard.aid';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface Csrf {
  /** Gives every visitor an anonymous id and, on a GET/HEAD, a valid XSRF-TOKEN cookie if they hold none. */
  issue: RequestHandler;
  /** 403 for a non-GET request whose X-XSRF-TOKEN header does not match a valid cookie. */
  protect: RequestHandler;
  /**
   * The same check for a GET that changes state (logout, which SPEC keeps a GET): an `<img>`, a
   * link or a cross-site navigation cannot send the header, so they cannot trigger it. A script
   * of our own origin may also call it without the header (docs/tokens-and-capture.md): the
   * browser's Fetch Metadata says so, and a pin cannot be a script.
   */
  requireToken: RequestHandler;
  /** A fresh token after login or logout changed what the token is bound to. */
  rotate(req: Request, res: Response): void;
  /**
   * Whether this instance found the request's cookies (session, anonymous id, token) to hold a
   * valid token within the last minute: no HMAC, no session needed (the cached public reads ask it
   * before the session is loaded, backend/http/public-reads.ts). False means "not known", not
   * "invalid".
   */
  knowsValidToken(req: Request): boolean;
}

/** How long a set of cookies found to hold a valid token is believed without checking it again. */
const KNOWN_VALID_MS = 60_000;
/** At most this many sets are remembered (oldest out first): one per recent visitor. */
const KNOWN_VALID_MAX = 20_000;

/**
 * The cookie sets found valid recently, by their values, with when that belief ends. A token is
 * valid for its cookie set until the session behind it ends (logout, expiry): the logout of this
 * visitor forgets their set at once (rotate), one on another instance within the minute; a write
 * checks its token in full either way.
 */
class KnownValidTokens {
  readonly #until = new Map<string, number>();

  static keyOf(req: Request): string | undefined {
    const cookies = req.cookies as Record<string, unknown>;
    const token = cookies[CSRF_COOKIE];
    if (typeof token !== 'string') return undefined;
    return `${String(cookies[SESSION_COOKIE] ?? '')}\n${String(cookies[ANON_COOKIE] ?? '')}\n${token}`;
  }

  has(req: Request): boolean {
    const key = KnownValidTokens.keyOf(req);
    const until = key === undefined ? undefined : this.#until.get(key);
    return until !== undefined && until > Date.now();
  }

  remember(req: Request): void {
    const key = KnownValidTokens.keyOf(req);
    if (key === undefined) return;
    this.#until.delete(key);
    if (this.#until.size >= KNOWN_VALID_MAX) this.#until.delete(this.#until.keys().next().value as string);
    this.#until.set(key, Date.now() + KNOWN_VALID_MS);
  }

  forget(req: Request): void {
    const key = KnownValidTokens.keyOf(req);
    if (key !== undefined) this.#until.delete(key);
  }
}

/**
 * A `fetch` or XHR from a page of this very origin, as the browser itself reports it (Fetch
 * Metadata, which a page cannot forge). A navigation (`navigate`), an image or other subresource
 * (`no-cors`) and any request from another site fail this, so only our own pages' scripts pass.
 */
function isSameOriginScript(req: Request): boolean {
  const mode = req.headers['sec-fetch-mode'];
  return req.headers['sec-fetch-site'] === 'same-origin' && (mode === 'cors' || mode === 'same-origin');
}

/**
 * Signed double-submit tokens (csrf-csrf). A token is bound to the session id of a signed-in
 * visitor, or to the anonymous id cookie before sign-in (with saveUninitialized: false an anonymous
 * visitor has no stable session id). Every instance derives the same secret from SESSION_SECRET,
 * so a token issued by one instance is accepted by all.
 */
export function createCsrf(sessionSecret: string, originPolicy: OriginPolicy): Csrf {
  const secret = createHmac('sha256', sessionSecret).update('pinboard csrf').digest('hex');
  /** Requests being asked "is your cookie's token still valid?" rather than "does your header match it?". */
  const checkingCookie = new WeakSet<Request>();
  const { generateCsrfToken, doubleCsrfProtection, validateRequest } = doubleCsrf({
    getSecret: () => secret,
    getSessionIdentifier: (req) => (req.session?.userId !== undefined ? `session:${req.sessionID}` : `anon:${String(req.cookies[ANON_COOKIE] ?? '')}`),
    cookieName: CSRF_COOKIE,
    // Readable by the page's script (double submit); "lax" like the session cookie.
    cookieOptions: { sameSite: 'lax', path: '/', secure: false, httpOnly: false },
    getCsrfTokenFromRequest: (req) => {
      if (checkingCookie.has(req)) return (req.cookies as Record<string, unknown>)[CSRF_COOKIE] as string | undefined;
      const header = req.headers[CSRF_HEADER] ?? req.headers[CSRF_HEADER_ALIAS];
      return typeof header === 'string' ? header : undefined;
    },
  });

  const known = new KnownValidTokens();

  /**
   * Whether the visitor's XSRF-TOKEN cookie is a token of ours, bound to who they are now (the
   * session must be loaded). The HMAC is checked once a minute per visitor, not on every read.
   */
  const holdsValidToken = (req: Request): boolean => {
    if (typeof (req.cookies as Record<string, unknown>)[CSRF_COOKIE] !== 'string') return false;
    if (known.has(req)) return true;
    checkingCookie.add(req);
    try {
      const valid = validateRequest(req);
      if (valid) known.remember(req);
      return valid;
    } finally {
      checkingCookie.delete(req);
    }
  };

  const cookieOptions = (req: Request) => ({ sameSite: 'lax' as const, path: '/', secure: req.secure, httpOnly: false });

  const ensureAnonId: RequestHandler = (req, res, next) => {
    const current: unknown = req.cookies[ANON_COOKIE];
    if (typeof current !== 'string' || !/^[0-9a-f]{32}$/.test(current)) {
      const id = randomBytes(16).toString('hex');
      req.cookies[ANON_COOKIE] = id;
      res.cookie(ANON_COOKIE, id, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/', maxAge: 365 * 24 * 3600_000 });
    }
    next();
  };

  return {
    issue: (req, res, next) => {
      ensureAnonId(req, res, () => {
        // Only a visitor without a valid token gets one: re-sending the cookie on every answer
        // would cost a Set-Cookie per read (and keep shared caches from storing anything).
        if ((req.method === 'GET' || req.method === 'HEAD') && !holdsValidToken(req)) {
          generateCsrfToken(req, res, { overwrite: true, cookieOptions: cookieOptions(req) });
        }
        next();
      });
    },
    // Defence in depth: a state-changing request from a browser on another site is refused on its
    // Origin alone, before the token is looked at (docs/operations.md: PUBLIC_ORIGIN or the forwarded Host).
    protect: (req, res, next) => {
      if (UNSAFE_METHODS.has(req.method) && !isAllowedOrigin(req, originPolicy)) {
        next(new HttpError(403, MSG.crossSite));
        return;
      }
      doubleCsrfProtection(req, res, next);
    },
    requireToken: (req, _res, next) => {
      if (!isAllowedOrigin(req, originPolicy)) next(new HttpError(403, MSG.crossSite));
      else if (!isSameOriginScript(req) && !validateRequest(req)) next(new HttpError(403, MSG.badCsrf));
      else next();
    },
    rotate: (req, res) => {
      known.forget(req);
      generateCsrfToken(req, res, { overwrite: true, cookieOptions: cookieOptions(req) });
    },
    knowsValidToken: (req) => known.has(req),
  };
}
