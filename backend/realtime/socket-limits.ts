import type { IncomingMessage } from 'node:http';
import { ipKeyGenerator } from 'express-rate-limit';
import proxyAddr from 'proxy-addr';
import { LIMITS } from '../../contract/limits.ts';
import type { TrustProxy } from '../http/origin.ts';

// What one client may hold of an instance's memory through sockets: how many connections per
// address and per session, how many pin rooms per socket, how many messages per window.

export interface ConnectionCaps {
  /** Open connections per client address (IPv6: per /56, as the REST rate limits count them). */
  perAddress: number;
  /** Open connections per signed-in session. */
  perSession: number;
}

/**
 * Counts open socket connections per client address and per signed-in session, and refuses a
 * handshake that would go over either cap. A connection is counted from its handshake until its
 * TCP connection closes, whatever ends it (refused upgrade, client gone, server disconnect), so the
 * counts cannot leak.
 */
export class ConnectionLimiter {
  readonly #byAddress = new Map<string, number>();
  readonly #bySession = new Map<string, number>();
  readonly #caps: ConnectionCaps;
  readonly #trustProxy: TrustProxy;

  constructor(caps: ConnectionCaps, trustProxy: TrustProxy) {
    this.#caps = caps;
    this.#trustProxy = trustProxy;
  }

  /** Counts the handshake's connection, or answers why it may not open. */
  admit(req: IncomingMessage, sessionId: string | undefined): string | undefined {
    const tcp = req.socket;
    // Already closed: its 'close' event has fired or is queued, so a count taken now would never be given back.
    if (tcp.destroyed) return 'The connection is closed.';
    const address = ipKeyGenerator(proxyAddr(req, this.#trustProxy));
    if ((this.#byAddress.get(address) ?? 0) >= this.#caps.perAddress) return 'Too many connections from your address.';
    if (sessionId !== undefined && (this.#bySession.get(sessionId) ?? 0) >= this.#caps.perSession) {
      return 'Too many connections for this session. Close some tabs.';
    }
    increment(this.#byAddress, address);
    if (sessionId !== undefined) increment(this.#bySession, sessionId);
    tcp.once('close', () => {
      decrement(this.#byAddress, address);
      if (sessionId !== undefined) decrement(this.#bySession, sessionId);
    });
    return undefined;
  }
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 0) - 1;
  // Drop zero entries: a map keyed by every address ever seen would itself grow without bound.
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

/** A socket's message budget: plain numbers kept in its `data`. */
export interface MessageBudget {
  windowStart: number;
  used: number;
  /** Messages refused in the current window. */
  refused: number;
}

export interface BudgetRules {
  /** Messages allowed per window. */
  limit: number;
  windowMs: number;
  /** Refused messages within one window after which the socket is disconnected. */
  refusedBeforeDisconnect: number;
}

export type BudgetVerdict = 'allow' | 'refuse' | 'disconnect';

/**
 * Spends one message of the budget. A client that keeps sending after its messages are refused
 * is not listening to the answers (the web client backs off), so it is disconnected rather than
 * served error answers forever.
 */
export function spendMessage(budget: MessageBudget, rules: BudgetRules, now = Date.now()): BudgetVerdict {
  if (now - budget.windowStart >= rules.windowMs) {
    budget.windowStart = now;
    budget.used = 0;
    budget.refused = 0;
  }
  budget.used += 1;
  if (budget.used <= rules.limit) return 'allow';
  budget.refused += 1;
  return budget.refused >= rules.refusedBeforeDisconnect ? 'disconnect' : 'refuse';
}

/** Room names of the `pin:<id>` kind (rooms.ts `pinRoom`). */
const isPinRoom = (room: string) => room.startsWith('pin:');

/** How many of these rooms (a socket's, or an adapter's) are pin rooms. */
export function watchedPinCount(rooms: Iterable<string>): number {
  let count = 0;
  for (const room of rooms) if (isPinRoom(room)) count += 1;
  return count;
}

/**
 * The rooms a watch would add, or why it may not: a socket holds at most
 * `LIMITS.watchedPinsPerSocket` pin rooms. All or nothing, so the client knows exactly what the
 * server holds for it.
 */
export function roomsToJoin(held: ReadonlySet<string>, wanted: readonly string[]): { rooms: string[] } | { error: string } {
  const rooms = [...new Set(wanted)].filter((room) => !held.has(room));
  if (watchedPinCount(held) + rooms.length > LIMITS.watchedPinsPerSocket) {
    return { error: `A connection can watch at most ${LIMITS.watchedPinsPerSocket} pins. Unwatch some first.` };
  }
  return { rooms };
}
