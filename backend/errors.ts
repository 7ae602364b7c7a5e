import type { ErrorBody } from '../contract/errors.ts';
import { MSG } from '../contract/messages.ts';

/** An error meant for the client: its status and body are sent as they are. */
export class HttpError extends Error {
  readonly status: number;
  readonly errors: string[];
  readonly fields: Record<string, string>;
  /** Sent as Retry-After (429, 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    message: string,
    options: { errors?: string[]; fields?: Record<string, string>; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.status = status;
    this.errors = options.errors ?? [message];
    this.fields = options.fields ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toBody(): ErrorBody {
    return { message: this.message, errors: this.errors, fields: this.fields };
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new HttpError(400, message, { fields });
export const unauthorized = (message: string = MSG.notSignedIn, fields?: Record<string, string>) =>
  new HttpError(401, message, { fields });
export const forbidden = (message: string = MSG.forbidden) => new HttpError(403, message);
export const notFound = (what: string) => new HttpError(404, `${what} not found.`);
