import type { Request, Response } from 'express';
import type { HttpError } from '../errors.ts';

// Answering before the request's body has arrived (an upload declared too large, refused while
// its body is still coming). Closing the connection at once would reset it while the client is
// still sending, and many clients (Node's fetch among them) then report a broken pipe instead of
// the answer. So, as nginx's lingering close does: the answer goes out whole, marked
// `Connection: close`, and the rest of the body is read and thrown away until the client stops
// sending (or for a bounded time and size), and only then is the connection closed.

export const LINGER = {
  /** The longest the server keeps reading after its answer. */
  totalMs: 10_000,
  /** Reading stops when the client sends nothing for this long. */
  idleMs: 2_000,
  /** The most it reads and throws away. */
  bytes: 64 * 1024 * 1024,
} as const;

/**
 * Sends `error` in the error shape with `Connection: close`, then drains what is left of the
 * request's body within LINGER's bounds before ending the response (which closes the connection).
 * A request whose body is complete, or that asked `Expect: 100-continue` and was never told to
 * continue (so it sends nothing), is ended at once. Resolves once the response has ended.
 */
export function answerAndLinger(req: Request, res: Response, error: HttpError, options: { drain: boolean } = { drain: true }): Promise<void> {
  const body = JSON.stringify(error.toBody());
  if (res.headersSent) {
    req.socket.destroy();
    return Promise.resolve();
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.setHeader('Connection', 'close');
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.status(error.status);
  const waitingForUs = req.headers.expect?.toLowerCase() === '100-continue' && !res.locals.continued;
  if (!options.drain || req.complete || req.readableEnded || waitingForUs) {
    return new Promise((resolve) => {
      res.end(body, () => resolve());
      // A client still sending (a timed-out upload) is cut off once the answer is out.
      if (!req.complete) res.once('finish', () => req.socket.destroy());
    });
  }
  res.write(body);
  return new Promise((resolve) => {
    let read = 0;
    let idle: NodeJS.Timeout | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(total);
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
      const cut = !req.complete;
      res.end(() => {
        // Past the bounds the connection is closed with the rest of the body unread.
        if (cut) req.socket.destroy();
        resolve();
      });
    };
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(finish, LINGER.idleMs);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER.bytes) finish();
      else arm();
    };
    const total = setTimeout(finish, LINGER.totalMs);
    arm();
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.resume();
  });
}
