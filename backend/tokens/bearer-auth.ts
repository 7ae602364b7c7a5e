import type { RequestHandler, Response } from 'express';
import { TOKEN_MSG, TOKEN_SECRET_PATTERN } from '../../contract/token-rules.ts';
import { carriesBearer } from '../http/caller.ts';
import { HttpError } from '../errors.ts';
import type { LastUsedRecorder } from './last-used.ts';
import type { TokenVerifier } from './token-verifier.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** 401 with the error shape and the challenge RFC 6750 asks for. */
function refuse(res: Response, message: string, error?: 'invalid_token'): HttpError {
  res.set('WWW-Authenticate', error ? `Bearer realm="pinboard", error="${error}"` : 'Bearer realm="pinboard"');
  return new HttpError(401, message);
}

/**
 * The token check of every /api call that carries `Authorization: Bearer` (others pass untouched):
 * a missing or malformed secret, an unknown (or revoked) one and an expired one are 401; a read
 * token may only read (403 otherwise); a valid one makes the request its user's (`req.bearer`),
 * counts against the token's own rate limit, and notes the use for `lastUsedAt`.
 */
export function bearerAuth(deps: { verifier: TokenVerifier; lastUsed: LastUsedRecorder; perToken: RequestHandler }): RequestHandler {
  return (req, res, next) => {
    if (!carriesBearer(req)) {
      next();
      return;
    }
    const secret = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!secret || !TOKEN_SECRET_PATTERN.test(secret)) {
      next(refuse(res, TOKEN_MSG.malformed));
      return;
    }
    deps.verifier.verify(secret).then((verdict) => {
      if (!verdict.ok) {
        next(refuse(res, verdict.reason === 'expired' ? TOKEN_MSG.expired : TOKEN_MSG.invalid, 'invalid_token'));
        return;
      }
      if (verdict.caller.scope === 'read' && !READ_METHODS.has(req.method)) {
        res.set('WWW-Authenticate', 'Bearer realm="pinboard", error="insufficient_scope"');
        next(new HttpError(403, TOKEN_MSG.readOnly));
        return;
      }
      req.bearer = verdict.caller;
      deps.lastUsed.mark(verdict.caller.tokenId);
      deps.perToken(req, res, next);
    }, next);
  };
}
