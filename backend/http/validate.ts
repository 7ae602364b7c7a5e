import type { Request } from 'express';
import type { z } from 'zod';
import { pathId } from '../../contract/fields.ts';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';

/** Turns zod issues into the error shape: every message listed, the first per input in `fields`. */
function validationError(error: z.ZodError): HttpError {
  const errors: string[] = [];
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (!errors.includes(issue.message)) errors.push(issue.message);
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in fields)) fields[field] = issue.message;
  }
  return new HttpError(400, errors.join(' '), { errors, fields });
}

/** Validates a JSON body. Anything but a plain object (array, null, string, nothing) is refused first. */
export function parseBody<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, MSG.notAnObject);
  }
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** Validates the query string; keys the schema does not name are ignored. */
export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  const result = schema.safeParse(req.query);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** Reads a numeric id from the path: "abc", "-1", "1.5" and out-of-range values are 400. */
export function parseId(req: Request, name: string): number {
  const result = pathId.safeParse(req.params[name]);
  if (!result.success) throw new HttpError(400, MSG.invalidId, { fields: { [name]: MSG.invalidId } });
  return result.data;
}
