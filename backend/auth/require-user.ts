import type { Request, RequestHandler } from 'express';
import { unauthorized } from '../errors.ts';
import '../http/session.ts';

/** 401 unless the session belongs to a signed-in user. */
export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.session?.userId === undefined ? unauthorized() : undefined);
};

/** The signed-in user's id; only call after `requireUser`. */
export function userIdOf(req: Request): number {
  const id = req.session.userId;
  if (id === undefined) throw unauthorized();
  return id;
}
