import type { Request } from 'express';
import { Router } from 'express';
import { LoginBody, SignupBody } from '../../contract/users.ts';
import type { ServiceContext } from '../context.ts';
import type { Csrf } from '../http/csrf.ts';
import type { RateLimiters } from '../http/rate-limits.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { parseBody } from '../http/validate.ts';
import { findUser, login, signup } from './auth.service.ts';

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((error) => (error ? reject(error) : resolve())));
}

function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
}

export function authRouter(ctx: ServiceContext, deps: { csrf: Csrf; limits: RateLimiters }): Router {
  const router = Router();
  router.use(deps.limits.authPerIp);

  /** Starts a fresh session for the user (a new id defeats session fixation) and a new CSRF token. */
  async function signIn(req: Request, res: import('express').Response, userId: number): Promise<void> {
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

  router.post('/signup', async (req, res) => {
    const input = parseBody(SignupBody, req);
    const user = await signup(ctx.db, input);
    await signIn(req, res, user.id);
    res.status(201).json(user);
  });

  router.post('/login', deps.limits.loginFailuresPerAccount, async (req, res) => {
    const input = parseBody(LoginBody, req);
    const user = await login(ctx.db, input);
    await signIn(req, res, user.id);
    res.json(user);
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
