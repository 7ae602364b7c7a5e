import { HttpError } from '../errors.ts';

// One export at a time per user on an instance (docs/import-export.md). An export streams every
// stored original of the account and holds a database connection's worth of reads and a
// connection for as long as the download lasts; a user (or a script with their session) starting
// many at once would hold as many. A second one while the first streams is told to come back.

/** What the refused caller reads. */
export const EXPORT_IN_PROGRESS = 'You have an export in progress already. Wait for it to finish, then try again.';

/** Seconds a refused caller is told to wait: exports of most accounts take about this long. */
const RETRY_AFTER_SECONDS = 10;

/**
 * The users exporting now, per instance: keyed by the instance's own object (its service context),
 * since a process may run several instances (the tests do), each with its own users.
 */
const exporting = new WeakMap<object, Set<number>>();

/** Takes `userId`'s export place on `instance`, or throws 429; the function returned gives it back (once). */
export function takeExportSlot(instance: object, userId: number): () => void {
  let users = exporting.get(instance);
  if (!users) exporting.set(instance, (users = new Set()));
  if (users.has(userId)) throw new HttpError(429, EXPORT_IN_PROGRESS, { retryAfterSeconds: RETRY_AFTER_SECONDS });
  users.add(userId);
  const held = users;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.delete(userId);
  };
}
