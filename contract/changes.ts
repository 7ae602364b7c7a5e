import { z } from 'zod';
import type { ChangeData, ChangeEventName } from './events.ts';
import { MSG } from './messages.ts';
import { queryInt } from './paging.ts';

// GET /api/changes?since=N (docs/change-log.md): the change log, for a client that missed socket events
// (a reconnect, a head it has no event for). Signed in or anonymous: a reader sees the public
// changes, and the ones whose audience names them (their own favorites, their boards' changes).

export { afterPage, CHANGES_PAGE_MAX } from './change-paging.ts';

export const ChangesQuery = z.object({
  // A position (docs/change-log.md): opaque, increasing, not dense; any safe integer.
  since: queryInt(MSG.sinceInvalid, 0, Number.MAX_SAFE_INTEGER),
});
export type ChangesQuery = z.input<typeof ChangesQuery>;

/** One change: `event` and `data` exactly as the socket event carried them, `data` without `seq`. */
export const Change = z.object({ seq: z.number().int().positive(), event: z.string(), data: z.record(z.string(), z.unknown()) }).meta({ id: 'Change' });

/**
 * The changes with `seq > since` this reader may see, oldest first, at most CHANGES_PAGE_MAX.
 *
 * `lastSeq` is the log's newest seq, read in the same snapshot as the changes (docs/change-log.md), or
 * `since` when that is further (the newest seq can step back; a reader's cursor never does), and
 * the rule a client follows is `afterPage` below:
 *   - an answer with fewer than CHANGES_PAGE_MAX changes is complete up to `lastSeq` (every change
 *     up to it that this reader may see is in the answer, and an empty answer still moves the
 *     cursor on past other readers' changes);
 *   - a full answer is complete up to its last change; the reader asks again from there unless
 *     that is `lastSeq` already (so 1,000 missed changes take one request, not two).
 */
export const ChangesPage = z.object({ changes: z.array(Change), lastSeq: z.number().int().nonnegative() }).meta({ id: 'ChangesPage' });

/**
 * The log no longer reaches back to `since` (pruned), or `since` is a position the log never
 * handed out (a database restored elsewhere): fetch the screens again and go on from `lastSeq`, the log's newest seq.
 */
export const ChangesReset = z.object({ reset: z.literal(true), lastSeq: z.number().int().nonnegative() }).meta({ id: 'ChangesReset' });

export const ChangesAnswer = z.union([ChangesPage, ChangesReset]).meta({ id: 'ChangesAnswer' });

/** A change as clients read it: `event` names one of the change events, `data` is its payload. */
export type ChangeEntry = { [E in ChangeEventName]: { seq: number; event: E; data: ChangeData<E> } }[ChangeEventName];
export type ChangesAnswer = { changes: ChangeEntry[]; lastSeq: number } | { reset: true; lastSeq: number };
