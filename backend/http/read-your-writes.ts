import type { Request, RequestHandler, Response } from 'express';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { formatLsn, type Lsn, parseLsn, type ReplicaRouting } from '../../db/replica.ts';
import { HttpError } from '../errors.ts';
import { callerId, carriesBearer } from './caller.ts';

// Read-your-writes over a read replica (docs/operations.md#a-read-replica). After a write, the
// answer carries the primary's WAL position: a browser keeps it in a cookie, a script may send the
// header back, and this instance remembers it for the user too (a token client that sends nothing
// back, on the same instance). For WINDOW the client's reads go to the replica only once it has
// replayed that far. Past the window the replica's lag bound covers it: a replica used at all is
// at most `maxLagMs` behind, and the window is longer than that.

/** A reader of the database: the replica's or the primary's, as `req`'s own writes allow. */
export type Reader = <T>(req: Request, read: (db: Kysely<DB>) => Promise<T>) => Promise<T>;

export const READ_AFTER_COOKIE = 'pinboard_read_after';
export const READ_AFTER_HEADER = 'pinboard-read-after';
export const READ_FROM_HEADER = 'pinboard-read-from';
/** Users remembered per instance at most (the oldest first out). */
const REMEMBERED_USERS = 100_000;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Remembered {
  lsn: Lsn;
  until: number;
}

export class ReadYourWrites {
  readonly #routing: ReplicaRouting;
  readonly #windowMs: number;
  readonly #users = new Map<number, Remembered>();

  constructor(routing: ReplicaRouting, options: { maxLagMs: number }) {
    this.#routing = routing;
    this.#windowMs = Math.max(60_000, 2 * options.maxLagMs);
  }

  /**
   * For every write: before its answer goes (after the handler committed), the primary's position
   * is taken and handed back. It wraps `res.end`, which every answer ends with (the session's own
   * save, wrapped before, runs after it). A refused write changed nothing: its answer goes as is.
   */
  readonly remember: RequestHandler = (req, res, next) => {
    if (!WRITES.has(req.method)) return next();
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      if (res.headersSent || res.statusCode >= 400) return end(...args);
      void this.#routing
        .primaryPosition()
        .then((lsn) => {
          if (!res.headersSent) this.#handBack(req, res, lsn);
        })
        .catch(() => undefined)
        .finally(() => end(...args));
      return res;
    }) as Response['end'];
    next();
  };

  readonly reader: Reader = (req, read) =>
    this.#routing.read(this.#after(req), read, {
      ownError: (error) => error instanceof HttpError,
      // Which one answered, for operators and tests (docs/operations.md#a-read-replica).
      answeredBy: (target) => {
        if (req.res && !req.res.headersSent) req.res.setHeader(READ_FROM_HEADER, target);
      },
    });

  #handBack(req: Request, res: Response, lsn: Lsn): void {
    const until = Date.now() + this.#windowMs;
    const value = `${formatLsn(lsn)}.${until}`;
    res.setHeader(READ_AFTER_HEADER, value);
    // A token request gets no cookie (docs/tokens-and-capture.md): the header and the user's entry serve it.
    if (!carriesBearer(req)) res.cookie(READ_AFTER_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: req.secure, maxAge: this.#windowMs, path: '/' });
    const userId = callerId(req);
    if (userId === undefined) return;
    const known = this.#users.get(userId);
    this.#users.delete(userId);
    this.#users.set(userId, { lsn: known && known.lsn > lsn && known.until > Date.now() ? known.lsn : lsn, until });
    if (this.#users.size > REMEMBERED_USERS) this.#users.delete(this.#users.keys().next().value as number);
  }

  /** The newest position this request must see: its cookie's, its header's, its user's here. */
  #after(req: Request): Lsn | undefined {
    const now = Date.now();
    let after: Lsn | undefined;
    const consider = (lsn: Lsn | undefined) => {
      if (lsn !== undefined && (after === undefined || lsn > after)) after = lsn;
    };
    const cookies = req.cookies as Record<string, string> | undefined;
    consider(fromValue(cookies?.[READ_AFTER_COOKIE], now));
    consider(fromValue(req.get(READ_AFTER_HEADER), now));
    const userId = callerId(req);
    const known = userId === undefined ? undefined : this.#users.get(userId);
    if (known && known.until > now) consider(known.lsn);
    return after;
  }
}

/**
 * A handed-back value, `X/Y.until`, while it lasts. The client may send anything: a position past
 * the primary's only sends its own reads to the primary (as if it kept writing), for the window at
 * most, so a value that claims a later end is held to the window.
 */
function fromValue(value: string | undefined, now: number): Lsn | undefined {
  if (!value) return undefined;
  const dot = value.lastIndexOf('.');
  const until = Number(value.slice(dot + 1));
  if (dot < 0 || !Number.isFinite(until) || until <= now || until > now + 3_600_000) return undefined;
  return parseLsn(value.slice(0, dot));
}
