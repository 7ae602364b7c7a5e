// What the screens read of the outbox: the entries stored (this tab's copy, refreshed whenever they
// change here or in another tab), which of them this tab has only just queued (not yet "waiting":
// their first attempt is under way), and whose session the outbox sends for.
import { atom } from 'jotai';
import type { OutboxEntry, OutboxSubject } from './entry.ts';

export const outboxEntriesAtom = atom<readonly OutboxEntry[]>([]);
/** Keys queued by this tab whose first attempt has not come back yet. */
export const outboxFreshKeysAtom = atom<ReadonlySet<string>>(new Set<string>());
/** The signed-in user the outbox sends for (Layout sets it): another user's entries wait. */
export const outboxUserIdAtom = atom<number | undefined>(undefined);

/** The signed-in user's entries, in the order they will be sent. */
export const myOutboxEntriesAtom = atom((get) => {
  const userId = get(outboxUserIdAtom);
  return userId === undefined ? [] : get(outboxEntriesAtom).filter((entry) => entry.userId === userId);
});

/** Entries shown as "Waiting to send": queued, and their first attempt got no answer (or an earlier tab's). */
export const waitingEntriesAtom = atom((get) => {
  const fresh = get(outboxFreshKeysAtom);
  return get(myOutboxEntriesAtom).filter((entry) => !fresh.has(entry.key));
});

type SubjectOf<K extends OutboxSubject['kind']> = Extract<OutboxSubject, { kind: K }>;

/** The signed-in user's entries of one kind (fresh ones too: the screen already shows the change). */
export function entriesOfKind<K extends OutboxSubject['kind']>(entries: readonly OutboxEntry[], kind: K): Array<OutboxEntry<SubjectOf<K>>> {
  return entries.filter((entry): entry is OutboxEntry<SubjectOf<K>> => entry.subject.kind === kind);
}
