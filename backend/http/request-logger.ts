import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * One structured line per request with a request id (taken from X-Request-Id when a proxy sent a
 * sane one, else new), echoed back in the response. Cookies, CSRF tokens and bodies are never logged.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: unknown; url: unknown; remoteAddress: unknown }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: unknown }) => ({ statusCode: res.statusCode }),
    },
    // 503 means a dependency is down (logged once by its client): a warning per request, not an error.
    customLogLevel: (_req, res, error) => {
      if (res.statusCode === 503) return 'warn';
      return error || res.statusCode >= 500 ? 'error' : 'info';
    },
  });
}
