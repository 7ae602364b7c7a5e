import type { Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { ACCOUNT_MSG } from '../../contract/account-rules.ts';
import type { Config } from '../config.ts';
import { HttpError } from '../errors.ts';
import { counterStore } from '../http/rate-limits.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';

/** What the password-reset routes need of the app: mail and a limit. */
export interface AccountSettings {
  /** Mails reset links; undefined without SMTP_URL (links then come from the operator's command). */
  mailer: Mailer | undefined;
  /** Counts a reset mail asked for this email; 429 past PASSWORD_RESETS_PER_EMAIL in the window. */
  countResetRequest(email: string): Promise<void>;
}

export function createAccountSettings(config: Config, redis: Redis | undefined): AccountSettings {
  const perEmail: Store = counterStore(`${config.rateLimits.deployment}:reset-email`, config.rateLimits.windowMs, redis);
  return {
    mailer: config.mail.smtpUrl ? createMailer({ url: config.mail.smtpUrl, from: config.mail.from }) : undefined,
    async countResetRequest(email) {
      // Counted for every email, with an account or not: the 429 tells nothing about who has one.
      const { totalHits, resetTime } = await perEmail.increment(email.trim().toLowerCase().slice(0, 254));
      if (totalHits <= config.passwordResetsPerEmail) return;
      const retryAfterSeconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : 60;
      throw new HttpError(429, ACCOUNT_MSG.resetsPerEmail, { retryAfterSeconds });
    },
  };
}
