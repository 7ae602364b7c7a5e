import type { RequestHandler } from 'express';
import { unauthorized } from '../errors.ts';
import { callerId } from './caller.ts';

// A members-only site (SITE_VISIBILITY=members, docs/site-access.md): an anonymous visitor may only
// sign in or up, ask who they are, reset a password and open a board's secret link. Everything
// else under /api answers 401; the home page sends them to /login (its HTML would carry the first
// page of the feed), and the client shows the log-in page for every other page. /media/ and
// sockets are guarded where they are served (backend/images/media-route.ts, the handshake's
// session in app.ts).

/**
 * The API calls open to anonymous visitors, as the route table names them. A trailing `*` takes
 * every path that starts so, with any method (password reset's calls).
 */
export const MEMBERS_ONLY_OPEN: readonly string[] = [
  'GET /api/auth/',
  'POST /api/auth/login',
  'POST /api/auth/signup',
  'POST /api/auth/demo',
  // Signing out needs no account, and a client whose session just ended must still be able to.
  'GET /api/auth/logout',
  '* /api/auth/password-reset*',
  // A link is the way in for someone without an account: that is what it is for.
  'GET /api/links/{secret}',
];

interface Opening {
  method: string;
  path: RegExp;
}

/** Express routes loosely (a trailing slash is optional), so the openings do too. */
function compile(entry: string): Opening {
  const [method = '', path = ''] = entry.split(' ');
  const prefix = path.endsWith('*');
  const body = (prefix ? path.slice(0, -1) : path.replace(/\/$/, ''))
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return { method, path: new RegExp(`^${body}${prefix ? '' : '/?$'}`) };
}

const OPENINGS = MEMBERS_ONLY_OPEN.map(compile);

/** Whether an anonymous visitor may make this call on a members-only site. */
export function openToVisitors(method: string, path: string): boolean {
  const asked = method === 'HEAD' ? 'GET' : method;
  return OPENINGS.some((opening) => (opening.method === '*' || opening.method === asked) && opening.path.test(path));
}

/** Mounted on /api after the token check and before anti-forgery: a visitor's call is 401, not 403. */
export const membersOnlyApi: RequestHandler = (req, _res, next) => {
  if (callerId(req) !== undefined || openToVisitors(req.method, `${req.baseUrl}${req.path}`)) next();
  else next(unauthorized());
};

/** Before the client's pages: the home page's HTML carries a page of pins, so a visitor is sent to log in. */
export const membersOnlyHome: RequestHandler = (req, res, next) => {
  if (req.path === '/' && (req.method === 'GET' || req.method === 'HEAD') && callerId(req) === undefined) res.redirect(302, '/login');
  else next();
};

/**
 * The socket handshake's session: the same steps as a request's (the session, then the disabled
 * account check), and on a members-only site an anonymous handshake is refused (engine.io answers
 * it 400 and no socket opens).
 */
export function handshakeSession(steps: readonly RequestHandler[], membersOnly: boolean): RequestHandler {
  return (req, res, next) => {
    const run = (at: number) => (error?: unknown) => {
      if (error) return next(error);
      const step = steps[at];
      if (step) return void step(req, res, run(at + 1));
      next(membersOnly && callerId(req) === undefined ? unauthorized() : undefined);
    };
    run(0)();
  };
}
