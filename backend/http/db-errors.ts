import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';

interface PgError {
  code?: unknown;
  constraint?: unknown;
}

// Unique and foreign-key violations are mapped by constraint name, so concurrent requests racing
// past a code check still get a clean 409/404 instead of a 500 (the constraint is the real guard).
const UNIQUE: Record<string, () => HttpError> = {
  users_email_key: () => new HttpError(409, MSG.emailTaken, { fields: { email: MSG.emailTaken } }),
  users_username_key: () => new HttpError(409, MSG.usernameTaken, { fields: { username: MSG.usernameTaken } }),
  // Sign-up checks look-alikes first and names them as such; a race reaching this index is nearly
  // always the same name sent twice (the lower(username) index above is usually hit first then),
  // and the violation does not say which, so it gets the plain "taken" message.
  users_username_skeleton_key: () => new HttpError(409, MSG.usernameTaken, { fields: { username: MSG.usernameTaken } }),
  comments_user_pin_key: () => new HttpError(409, MSG.commentDuplicate),
};

const FOREIGN_KEY_TARGET: Record<string, string> = {
  favorites_pin_id_fkey: 'Pin',
  comments_pin_id_fkey: 'Pin',
  board_pins_pin_id_fkey: 'Pin',
  board_pins_board_id_fkey: 'Board',
};

export function mapDatabaseError(error: object): HttpError | undefined {
  const { code, constraint } = error as PgError;
  if (typeof code !== 'string') return undefined;
  if (code === '23505' && typeof constraint === 'string') {
    return UNIQUE[constraint]?.() ?? new HttpError(409, 'That already exists.');
  }
  if (code === '23503' && typeof constraint === 'string') {
    const target = FOREIGN_KEY_TARGET[constraint];
    return target ? new HttpError(404, `${target} not found.`) : undefined;
  }
  // Check constraints back up the request validation; reaching one means the input was invalid.
  // 22021: a byte sequence Postgres text cannot hold (e.g. U+0000) — the validation refuses it first.
  if (code === '23514' || code === '22001' || code === '22021') return new HttpError(400, 'The request contains a value that is not allowed.');
  return undefined;
}

const DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '53300']);

/** True for "the database or Redis is not answering": the client gets 503, not 500. */
export function isDependencyDown(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && DOWN_CODES.has(code)) return true;
  if (typeof message !== 'string') return false;
  // pg's and ioredis' "not answering"; with ioredis also a command that timed out, and a Redis
  // Cluster with a node down or its slot map being refreshed.
  return /timeout exceeded when trying to connect|Connection terminated|not queryable|Query read timeout|Connection is closed|Stream isn't writeable|MaxRetriesPerRequest|Command timed out|^(CLUSTERDOWN|TRYAGAIN|MOVED|ASK) |Cluster isn't ready|Too many Cluster redirections|Failed to refresh slots cache|None of startup nodes is available/i.test(
    message,
  );
}
