import { ACCOUNT_MSG } from '../../contract/account-rules.ts';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { mailResetLink, resetPassword } from './password-reset.service.ts';

// Forgotten passwords (docs/accounts.md). Both calls count as sign-in attempts of the address;
// the request also counts per email.

export const passwordResetRoutes: ApiRoute[] = [
  route(ENDPOINTS['POST /api/auth/password-reset'], {
    summary: 'Ask for a reset link by email: always 202, whether or not an account has that email',
    auth: 'public',
    sessionOnly: true,
    attempt: true,
    handler: async ({ ctx, accounts, originPolicy, req, res, body }) => {
      await accounts.countResetRequest(body.email);
      // The answer goes before the account is even looked up: it is the same, and as fast, for an
      // email with an account and one without.
      res.status(202).json({ message: ACCOUNT_MSG.resetRequested });
      const { mailer } = accounts;
      if (!mailer) return;
      // PUBLIC_ORIGIN when set (production requires it with SMTP_URL: backend/config.ts).
      const origin = originPolicy.publicOrigins[0] ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      await mailResetLink({ db: ctx.db, mailer }, body.email, origin).catch((error: unknown) => {
        req.log.warn({ err: error }, 'the password reset mail was not sent');
      });
    },
  }),

  route(ENDPOINTS['POST /api/auth/password-reset/confirm'], {
    summary: 'Choose a new password with a reset link; every session of the account ends',
    auth: 'public',
    sessionOnly: true,
    attempt: true,
    handler: async ({ ctx, req, res, body }) => {
      await resetPassword({ db: ctx.db, sessions: { store: req.sessionStore, events: ctx.events } }, body.token, body.password);
      res.status(204).end();
    },
  }),
];
