import type { Request, RequestHandler } from 'express';
import { TOKEN_MSG } from '../../contract/token-rules.ts';
import { HttpError } from '../errors.ts';

// Who is calling: a signed-in browser session (its cookie), or a personal access token
// (`Authorization: Bearer`, backend/tokens/). A request that carries a bearer token is judged by
// the token alone: it gets no session, no anti-forgery cookie and no Set-Cookie at all.

/** A request authenticated by a personal access token. */
export interface BearerCaller {
  userId: number;
  tokenId: number;
  scope: 'read' | 'write';
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the token check (backend/tokens/bearer-auth.ts) when the request carries a valid token. */
    bearer?: BearerCaller;
  }
}

/** The calling user: the token's, else the session's; undefined for an anonymous visitor. */
export function callerId(req: Request): number | undefined {
  return req.bearer?.userId ?? req.session?.userId;
}

/**
 * Whether the request offers a bearer token (valid or not). Only the Bearer scheme counts: another
 * scheme (Basic from a proxy in front of the site, say) is left alone, and the cookies decide.
 */
export function carriesBearer(req: Request): boolean {
  const header = req.headers.authorization;
  return header !== undefined && /^bearer(\s|$)/i.test(header);
}

/** The handler for cookie requests only: a request with a bearer token passes straight through. */
export function unlessBearer(handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (carriesBearer(req)) next();
    else void handler(req, res, next);
  };
}

/** For the calls only a browser session may make (token management, sign-in and sign-out): 403 for a token. */
export const refuseTokens: RequestHandler = (req, _res, next) => {
  next(carriesBearer(req) ? new HttpError(403, TOKEN_MSG.sessionOnly) : undefined);
};
