import type { ErrorRequestHandler, RequestHandler } from 'express';
import { MSG } from '../../contract/messages.ts';
import { isDependencyDown, mapDatabaseError } from './db-errors.ts';
import { HttpError } from '../errors.ts';

/** Body-parser and csrf-csrf raise errors carrying `status` and `type`/`code`. */
interface LibraryHttpError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  code?: unknown;
}

function fromLibraryError(error: LibraryHttpError): HttpError | undefined {
  if (error.type === 'entity.too.large') return new HttpError(413, MSG.bodyTooLarge);
  if (error.type === 'entity.parse.failed') return new HttpError(400, MSG.badJson);
  if (error.code === 'EBADCSRFTOKEN') return new HttpError(403, MSG.badCsrf);
  const status = typeof error.status === 'number' ? error.status : error.statusCode;
  // Any other 4xx from a library (unsupported charset, encoding, …) stays a 4xx with our shape.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, 'The request could not be processed.');
  }
  return undefined;
}

interface ErrorLogger {
  error(details: object, message: string): void;
}

/** Marks the answer's errors as carrying these `fields` keys at the top level too (route `errorFieldsAtTop`). */
export function liftErrorFields(keys: readonly string[]): RequestHandler {
  return (_req, res, next) => {
    res.locals.errorFieldsAtTop = keys;
    next();
  };
}

/** The error body, with the route's lifted field keys beside `message`, `errors` and `fields` (below 500). */
function bodyOf(error: HttpError, lifted: unknown): Record<string, unknown> {
  const body = error.toBody();
  if (!Array.isArray(lifted) || error.status >= 500) return body;
  const top: Record<string, string> = {};
  for (const key of lifted as string[]) if (typeof body.fields[key] === 'string') top[key] = body.fields[key];
  return { ...top, ...body };
}

/** The one error renderer: known errors keep their status; anything else is a masked 500. */
export function errorHandler(logger: ErrorLogger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    let httpError: HttpError | undefined;
    if (error instanceof HttpError) httpError = error;
    else if (typeof error === 'object' && error !== null) {
      httpError = fromLibraryError(error as LibraryHttpError) ?? mapDatabaseError(error);
    }
    if (!httpError && isDependencyDown(error)) httpError = new HttpError(503, MSG.unavailable);
    if (!httpError) {
      logger.error({ err: error }, 'unhandled error');
      httpError = new HttpError(500, MSG.serverError);
    }
    if (httpError.retryAfterSeconds !== undefined) res.set('Retry-After', String(httpError.retryAfterSeconds));
    else if (httpError.status === 503) res.set('Retry-After', '2');
    res.status(httpError.status).json(bodyOf(httpError, res.locals.errorFieldsAtTop));
  };
}

export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, `No API route for ${req.method} ${req.path}.`));
};
