// Where the outbox keeps its entries (docs/outbox.md): IndexedDB database `pinboard-outbox`, object
// store `entries`, one record (key `entries`) holding them in order. One record, changed with
// idb-keyval's update() — a read and a write in one IndexedDB transaction — so two tabs changing it
// at once cannot lose each other's entries. Where IndexedDB is missing (the jsdom tests, a browser
// that refuses it) the entries live in memory: the outbox still works, for this tab only.
import { createStore, get, update, type UseStore } from 'idb-keyval';
import type { OutboxEntry } from './entry.ts';

export const OUTBOX_DATABASE = 'pinboard-outbox';
export const OUTBOX_STORE = 'entries';
const RECORD = 'entries';

export interface OutboxStorage {
  read(): Promise<OutboxEntry[]>;
  /** Changes the entries in one step and resolves with what they became. */
  update(change: (entries: OutboxEntry[]) => OutboxEntry[]): Promise<OutboxEntry[]>;
}

function indexedDbStorage(idb: UseStore): OutboxStorage {
  return {
    read: async () => (await get<OutboxEntry[]>(RECORD, idb)) ?? [],
    async update(change) {
      let result: OutboxEntry[] = [];
      await update<OutboxEntry[]>(RECORD, (entries) => (result = change(entries ?? [])), idb);
      return result;
    },
  };
}

export function memoryStorage(): OutboxStorage {
  let entries: OutboxEntry[] = [];
  return {
    read: () => Promise.resolve(entries),
    update: (change) => Promise.resolve((entries = change(entries))),
  };
}

/** IndexedDB when the browser has it, else memory. */
export function defaultStorage(): OutboxStorage {
  return typeof indexedDB === 'undefined' ? memoryStorage() : indexedDbStorage(createStore(OUTBOX_DATABASE, OUTBOX_STORE));
}
