import type { Request, Response } from 'express';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';
import type { Csrf } from '../http/csrf.ts';
import { ipKeyGenerator } from 'express-rate-limit';
import { type ApiRoute, route } from '../http/route.ts';
import { SESSION_COOKIE, sessionAdmission } from '../http/session.ts';
import type { SiteSettings } from '../../contract/invites.ts';
import { checkInvite } from '../invites/invites.service.ts';
import { deleteNewAccount, findUser, findUserIdByEmail, login, sessionOf, signup } from './auth.service.ts';

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((error) => (error ? reject(error) : resolve())));
}

function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
}

/** The client's address as the session store counts it: IPv6 per /56, as the rate limits do. */
const addressOf = (req: Request) => ipKeyGenerator(req.ip ?? '', 56);

/** Refuses (429, 503) a sign-in whose session the store could not take now, before anything is done. */
function admit(req: Request, userId?: number): void {
  sessionAdmission(req.sessionStore).admit(addressOf(req), userId);
}

/**
 * Starts a fresh session for the user (a new id defeats session fixation) and a new CSRF token.
 * A session the store refuses is let go: express-session would otherwise try to save it again as
 * the error answer ends, and report that second failure after the answer had begun, which cut the
 * connection; nor does the refused session's cookie go out.
 */
async function signIn(csrf: Csrf, req: Request, res: Response, userId: number): Promise<void> {
  await regenerate(req);
  req.session.userId = userId;
  req.session.address = addressOf(req);
  try {
    await save(req);
  } catch (error) {
    Reflect.set(req, 'session', undefined);
    throw error;
  }
  csrf.rotate(req, res);
}

/**
 * Who may sign up (SIGNUPS, docs/site-access.md): everyone, the holders of an invite code (whose
 * code is then the one to use), or nobody. Refused before anything is hashed or stored.
 */
function inviteToUse(signups: SiteSettings['signups'], invite: string | undefined): string | undefined {
  if (signups === 'closed') throw new HttpError(403, MSG.signupsClosed);
  if (signups === 'open') return undefined;
  if (!invite) throw new HttpError(403, MSG.inviteRequired, { fields: { invite: MSG.inviteRequired } });
  return invite;
}

/**
 * SPEC-only clients read a sign-in or sign-up error as a flat object of field messages; ours read
 * `fields`. Both are in the body (docs/tokens-and-capture.md).
 */
const AUTH_FIELDS = ['email', 'password', 'credential', 'username'] as const;

export const authRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/auth/'], {
    summary: 'Current session user (null when anonymous)',
    auth: 'public',
    handler: async ({ ctx, res, site, userId }) => {
      res.json(await sessionOf(ctx.db, userId, site));
    },
  }),

  route(ENDPOINTS['POST /api/auth/login'], {
    sessionOnly: true,
    summary: 'Sign in',
    auth: 'public',
    attempt: true,
    errorFieldsAtTop: AUTH_FIELDS,
    errors: [401],
    handler: async ({ ctx, csrf, throttle, req, res, body }) => {
      const address = req.ip ?? '';
      admit(req);
      const attempt = await throttle.begin(body.email, address);
      const user = await login(ctx.db, body).catch(async (error: unknown) => {
        // A wrong password stays counted; anything else judged no password and counts for nothing.
        if (!(error instanceof HttpError && error.status === 401)) await attempt.abandoned();
        throw error;
      });
      await attempt.succeeded();
      await signIn(csrf, req, res, user.id);
      res.json(user);
    },
  }),

  route(ENDPOINTS['POST /api/auth/signup'], {
    sessionOnly: true,
    summary: 'Create an account and sign in (403 when sign-ups are closed, or need an invite and `invite` is not a usable code)',
    auth: 'public',
    attempt: true,
    errorFieldsAtTop: AUTH_FIELDS,
    errors: [409],
    handler: async ({ ctx, csrf, req, res, site, body }) => {
      const invite = inviteToUse(site.signups, body.invite);
      if (invite !== undefined) await checkInvite(ctx.db, invite);
      // An account is created only with a session to sign it in: checked first, and taken back if
      // the store filled up meanwhile (the hashing takes a while).
      admit(req);
      const user = await signup(ctx.db, body, invite);
      await signIn(csrf, req, res, user.id).catch(async (error: unknown) => {
        await deleteNewAccount(ctx.db, user.id);
        throw error;
      });
      res.status(201).json(user);
    },
  }),

  // The demo button signs in on the server, so no password ships to browsers, and hammering the
  // demo account's password login (which the throttle slows) does not stop it.
  route(ENDPOINTS['POST /api/auth/demo'], {
    sessionOnly: true,
    summary: 'Sign in as the demo account (when the server offers it)',
    auth: 'public',
    attempt: true,
    errors: [404],
    handler: async ({ ctx, csrf, demoEmail, req, res }) => {
      const userId = demoEmail === undefined ? undefined : await findUserIdByEmail(ctx.db, demoEmail);
      // A demo account the operator disabled is not offered either.
      const user = userId === undefined ? undefined : await findUser(ctx.db, userId);
      if (user === undefined) throw new HttpError(404, MSG.demoUnavailable);
      admit(req, user.id);
      await signIn(csrf, req, res, user.id);
      res.json(user);
    },
  }),

  route(ENDPOINTS['GET /api/auth/logout'], {
    sessionOnly: true,
    summary: 'Sign out (needs the X-XSRF-TOKEN header, like a write, unless it is a same-origin script fetch)',
    auth: 'public',
    csrfOnGet: true,
    handler: async ({ ctx, csrf, req, res, userId }) => {
      const sessionId = req.sessionID;
      // A visitor without a session cookie has no session to end (backend/http/session.ts).
      if ((req.session as Request['session'] | undefined) !== undefined) await destroy(req);
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      // The token was bound to the ended session; hand out one bound to the anonymous id.
      csrf.rotate(req, res);
      if (userId !== undefined) ctx.events.publish('session.ended', { userId, sessionId });
      res.json({ message: 'Logged out' });
    },
  }),
];
