import type { Request, Response } from 'express';
import { Router } from 'express';
import { MSG } from '../../contract/messages.ts';
import { LoginBody, SignupBody } from '../../contract/users.ts';
import type { ServiceContext } from '../context.ts';
import type { Csrf } from '../http/csrf.ts';
import type { RateLimiters } from '../http/rate-limits.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { HttpError } from '../errors.ts';
import { parseBody } from '../http/validate.ts';
import { findUser, findUserIdByEmail, login, signup } from './auth.service.ts';
import type { LoginThrottle } from './login-throttle.ts';

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((error) => (error ? reject(error) : resolve())));
}

function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
}

export interface AuthDeps {
  csrf: Csrf;
  limits: RateLimiters;
  throttle: LoginThrottle;
  /** The demo account's email when POST /api/auth/demo is switched on, else undefined. */
  demoEmail: string | undefined;
}

export function authRouter(ctx: ServiceContext, deps: AuthDeps): Router {
  const router = Router();
  // Only attempts to sign in or up count against the per-address limit: the session check runs on
  // every page load, and a shared address (an office, a carrier NAT) must not run out of it.
  const attempt = deps.limits.authPerIp;

  /** Starts a fresh session for the user (a new id defeats session fixation) and a new CSRF token. */
  async function signIn(req: Request, res: Response, userId: number): Promise<void> {
    await regenerate(req);
    req.session.userId = userId;
    await save(req);
    deps.csrf.rotate(req, res);
  }

  router.get('/', async (req, res) => {
    const userId = req.session.userId;
    const user = userId === undefined ? undefined : await findUser(ctx.db, userId);
    res.json({ user: user ?? null });
  });

  router.post('/signup', attempt, async (req, res) => {
    const input = parseBody(SignupBody, req);
    const user = await signup(ctx.db, input);
    await signIn(req, res, user.id);
    res.status(201).json(user);
  });

  router.post('/login', attempt, async (req, res) => {
    const input = parseBody(LoginBody, req);
    const address = req.ip ?? '';
    await deps.throttle.beforeAttempt(input.email, address);
    const user = await login(ctx.db, input).catch(async (error: unknown) => {
      if (error instanceof HttpError && error.status === 401) await deps.throttle.recordFailure(input.email, address);
      throw error;
    });
    await deps.throttle.recordSuccess(input.email, address);
    await signIn(req, res, user.id);
    res.json(user);
  });

  // The demo button signs in on the server, so no password ships to browsers, and hammering the
  // demo account's password login (which the throttle slows) does not stop it.
  router.post('/demo', attempt, async (req, res) => {
    const userId = deps.demoEmail === undefined ? undefined : await findUserIdByEmail(ctx.db, deps.demoEmail);
    if (userId === undefined) throw new HttpError(404, MSG.demoUnavailable);
    await signIn(req, res, userId);
    res.json(await findUser(ctx.db, userId));
  });

  router.get('/logout', deps.csrf.requireToken, async (req, res) => {
    const userId = req.session.userId;
    const sessionId = req.sessionID;
    await destroy(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    // The token was bound to the ended session; hand out one bound to the anonymous id.
    deps.csrf.rotate(req, res);
    if (userId !== undefined) ctx.events.publish('session.ended', { userId, sessionId });
    res.json({ message: 'Logged out' });
  });

  return router;
}
