// Where presence is counted (docs/presence.md). Two stores with one interface: Redis (shared by the
// instances, ./presence-redis.ts) and in-process (the embedded mode, below). Both keep, per pin or
// board:
//   - the present *members*: `u:<userId>` for a signed-in user (however many tabs), `s:<socketId>`
//     for an anonymous socket, each with an expiry;
//   - per signed-in user, their present sockets with an expiry, so that one tab leaving keeps the
//     user counted while another of their tabs (on any instance) is still there.
// Entries expire unless refreshed: an instance refreshes its own sockets' entries on a heartbeat,
// so the entries of an instance that crashed disappear within the TTL.

export type PresenceKind = 'pin' | 'board';

export interface PresenceKey {
  kind: PresenceKind;
  id: number;
}

/** One present socket. */
export interface PresenceEntry {
  socketId: string;
  userId: number | undefined;
}

/** One key's entries on this instance. */
export interface PresenceGroup {
  key: PresenceKey;
  entries: readonly PresenceEntry[];
}

/** A pin's or board's presence now: how many members, and (boards) which users. */
export interface PresenceState {
  count: number;
  /** The present signed-in users (boards only; empty for pins), at most `PRESENCE_LIMITS.boardUsers`. */
  userIds: number[];
}

export interface PresenceStore {
  join(key: PresenceKey, entry: PresenceEntry): Promise<PresenceState>;
  leave(key: PresenceKey, entry: PresenceEntry): Promise<PresenceState>;
  /**
   * Extends the expiry of this instance's entries (re-adding any that were lost), for many keys at
   * once; answers each key's state, in order.
   */
  refresh(batch: readonly PresenceGroup[]): Promise<PresenceState[]>;
  read(key: PresenceKey): Promise<PresenceState>;
}

export const memberOf = (entry: PresenceEntry): string => (entry.userId === undefined ? `s:${entry.socketId}` : `u:${entry.userId}`);

/** The user ids among members (`u:<id>`), in member order. */
export function userIdsOf(members: readonly string[]): number[] {
  const ids: number[] = [];
  for (const member of members) {
    if (member.startsWith('u:')) {
      const id = Number(member.slice(2));
      if (Number.isSafeInteger(id)) ids.push(id);
    }
  }
  return ids;
}

/** The embedded mode's store: one process holds every socket, but entries expire all the same. */
export class MemoryPresenceStore implements PresenceStore {
  /** `kind:id` → member → expiry (ms). */
  readonly #members = new Map<string, Map<string, number>>();
  /** `kind:id:userId` → socket id → expiry. */
  readonly #userSockets = new Map<string, Map<string, number>>();
  readonly #ttlMs: number;
  readonly #listMax: number;
  readonly #now: () => number;

  constructor(ttlMs: number, listMax: number, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#listMax = listMax;
    this.#now = now;
  }

  join(key: PresenceKey, entry: PresenceEntry): Promise<PresenceState> {
    this.#add(key, entry, this.#now() + this.#ttlMs);
    return Promise.resolve(this.#state(key));
  }

  leave(key: PresenceKey, entry: PresenceEntry): Promise<PresenceState> {
    const name = keyName(key);
    const members = this.#members.get(name);
    if (entry.userId === undefined) members?.delete(memberOf(entry));
    else {
      const userName = `${name}:${entry.userId}`;
      const sockets = this.#userSockets.get(userName);
      sockets?.delete(entry.socketId);
      if (sockets) dropExpired(sockets, this.#now());
      // Still here in another tab: counted until that tab's own expiry.
      const latest = sockets && sockets.size ? Math.max(...sockets.values()) : undefined;
      if (latest === undefined) {
        this.#userSockets.delete(userName);
        members?.delete(memberOf(entry));
      } else members?.set(memberOf(entry), latest);
    }
    return Promise.resolve(this.#state(key));
  }

  refresh(batch: readonly PresenceGroup[]): Promise<PresenceState[]> {
    const expiry = this.#now() + this.#ttlMs;
    return Promise.resolve(
      batch.map(({ key, entries }) => {
        for (const entry of entries) this.#add(key, entry, expiry);
        return this.#state(key);
      }),
    );
  }

  read(key: PresenceKey): Promise<PresenceState> {
    return Promise.resolve(this.#state(key));
  }

  #add(key: PresenceKey, entry: PresenceEntry, expiry: number): void {
    const name = keyName(key);
    let members = this.#members.get(name);
    if (!members) this.#members.set(name, (members = new Map()));
    members.set(memberOf(entry), expiry);
    if (entry.userId === undefined) return;
    const userName = `${name}:${entry.userId}`;
    let sockets = this.#userSockets.get(userName);
    if (!sockets) this.#userSockets.set(userName, (sockets = new Map()));
    sockets.set(entry.socketId, expiry);
  }

  #state(key: PresenceKey): PresenceState {
    const name = keyName(key);
    const members = this.#members.get(name);
    if (!members) return { count: 0, userIds: [] };
    const now = this.#now();
    for (const [member, expiry] of members) {
      if (expiry > now) continue;
      members.delete(member);
      if (member.startsWith('u:')) this.#userSockets.delete(`${name}:${member.slice(2)}`);
    }
    if (members.size === 0) {
      this.#members.delete(name);
      return { count: 0, userIds: [] };
    }
    const userIds = key.kind === 'board' ? userIdsOf([...members.keys()]).slice(0, this.#listMax) : [];
    return { count: members.size, userIds };
  }
}

const keyName = (key: PresenceKey) => `${key.kind}:${key.id}`;

function dropExpired(entries: Map<string, number>, now: number): void {
  for (const [name, expiry] of entries) if (expiry <= now) entries.delete(name);
}
