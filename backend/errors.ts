import type { ErrorBody } from '../contract/errors.ts';
import { MSG } from '../contract/messages.ts';

/** An error meant for the client: its status and body are sent as they are. */
export class HttpError extends Error {
  readonly status: number;
  readonly errors: string[];
  readonly fields: Record<string, string>;
  /** Sent as Retry-After (429, 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, message: string, options: { errors?: string[]; fields?: Record<string, string>; retryAfterSeconds?: number } = {}) {
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

export const badRequest = (message: string, fields?: Record<string, string>) => new HttpError(400, message, { fields });
export const unauthorized = (message: string = MSG.notSignedIn, fields?: Record<string, string>) => new HttpError(401, message, { fields });
export const forbidden = (message: string = MSG.forbidden) => new HttpError(403, message);
export const notFound = (what: string) => new HttpError(404, `${what} not found.`);

/** For a `.catch`: a 404 becomes undefined (the caller looks elsewhere), anything else goes on. */
export function unlessNotFound(error: unknown): undefined {
  if (error instanceof HttpError && error.status === 404) return undefined;
  throw error;
}

/** Why an image was refused; every way in (upload, fetch by URL, seed) refuses with these. */
export type ImageRefusal = 'empty' | 'too-large' | 'not-an-image' | 'damaged' | 'too-many-pixels' | 'too-long' | 'too-narrow' | 'too-slow';

const IMAGE_REFUSALS: Record<ImageRefusal, { status: number; message: string }> = {
  empty: { status: 400, message: MSG.imageEmpty },
  'too-large': { status: 413, message: MSG.imageTooLarge },
  'not-an-image': { status: 400, message: MSG.imageNotAnImage },
  damaged: { status: 400, message: MSG.imageDamaged },
  'too-many-pixels': { status: 400, message: MSG.imageTooManyPixels },
  'too-long': { status: 400, message: MSG.imageTooLong },
  'too-narrow': { status: 400, message: MSG.imageTooNarrow },
  'too-slow': { status: 400, message: MSG.imageTooSlow },
};

/**
 * An image that will never be stored, whoever retries it: a job can tell it from a passing failure
 * (storage or database down) by its class and give up at once. Upload answers it as it is.
 */
export class ImageRefusedError extends HttpError {
  readonly reason: ImageRefusal;

  constructor(reason: ImageRefusal, options: { cause?: unknown } = {}) {
    const { status, message } = IMAGE_REFUSALS[reason];
    super(status, message, { fields: { file: message } });
    this.reason = reason;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}
