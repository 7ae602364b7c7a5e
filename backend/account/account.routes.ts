import type { Request } from 'express';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import type { ListedSession } from '../http/session-directory.ts';
import { newPasswordHash, requireUser, setPasswordHash, updateAccount } from './account.service.ts';
import { deleteAccount } from './delete-account.ts';
import { endSessionsOf, sessionHandle, sessionsOf } from './end-sessions.ts';
import { checkOwnPassword } from './password-check.ts';

// Account settings (docs/accounts.md). Only the signed-in browser session may call these: a token
// that leaked must not be able to change the password, the email, or delete the account
// (`sessionOnly`: 403 for any token). Calls that check the password count as sign-in attempts.

function toWire(session: ListedSession, currentSid: string) {
  return {
    id: sessionHandle(session.sid),
    current: session.sid === currentSid,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    userAgent: session.userAgent,
  };
}

function destroyOwnSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((error?: unknown) => (error ? reject(error as Error) : resolve())));
}

export const accountRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/account'], {
    summary: "The caller's account and its signed-in sessions (this one first, then the most recently used)",
    auth: 'user',
    sessionOnly: true,
    handler: async ({ ctx, req, res, userId }) => {
      const [user, sessions] = await Promise.all([requireUser(ctx.db, userId), sessionsOf(req.sessionStore, userId)]);
      const listed = sessions.map((session) => toWire(session, req.sessionID)).sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
      res.json({ user, sessions: listed });
    },
  }),

  route(ENDPOINTS['PATCH /api/account'], {
    summary: 'Change the username and/or email (with the current password)',
    auth: 'user',
    sessionOnly: true,
    attempt: true,
    errors: [409],
    handler: async ({ ctx, throttle, req, res, userId, body }) => {
      await checkOwnPassword({ db: ctx.db, throttle }, req, userId, body.currentPassword, 'currentPassword');
      res.json(await updateAccount(ctx.db, userId, { username: body.username, email: body.email }));
    },
  }),

  route(ENDPOINTS['POST /api/account/password'], {
    summary: "Change the password (with the current one); the account's other sessions and their sockets end",
    auth: 'user',
    sessionOnly: true,
    attempt: true,
    handler: async ({ ctx, throttle, req, res, userId, body }) => {
      await checkOwnPassword({ db: ctx.db, throttle }, req, userId, body.currentPassword, 'currentPassword');
      await setPasswordHash(ctx.db, userId, await newPasswordHash(body.newPassword, 'newPassword'));
      await endSessionsOf({ store: req.sessionStore, events: ctx.events }, userId, { except: req.sessionID });
      res.status(204).end();
    },
  }),

  route(ENDPOINTS['POST /api/account/sessions/end-others'], {
    summary: 'Sign out everywhere else: every other session of the account and their sockets end',
    auth: 'user',
    sessionOnly: true,
    handler: async ({ ctx, req, res, userId }) => {
      await endSessionsOf({ store: req.sessionStore, events: ctx.events }, userId, { except: req.sessionID });
      res.status(204).end();
    },
  }),

  route(ENDPOINTS['DELETE /api/account'], {
    summary: 'Delete the account (with the password): its pins, boards, comments, favorites, tokens and sessions go',
    auth: 'user',
    sessionOnly: true,
    attempt: true,
    handler: async ({ ctx, csrf, tokens, throttle, req, res, userId, body }) => {
      await checkOwnPassword({ db: ctx.db, throttle }, req, userId, body.password, 'password');
      const sessionId = req.sessionID;
      await deleteAccount({ ctx, tokens, sessions: { store: req.sessionStore, events: ctx.events } }, userId, sessionId);
      await destroyOwnSession(req);
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      // As logout: the anti-forgery token was bound to the ended session.
      csrf.rotate(req, res);
      ctx.events.publish('session.ended', { userId, sessionId });
      res.status(204).end();
    },
  }),
];
