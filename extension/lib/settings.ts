// What the extension keeps (browser.storage.local, read by the background and the extension's own
// pages; content scripts ask the background instead, so the token never reaches a web page's process
// through them): the server, the token and whom it belongs to, and the boards saved to lately.
import { browser } from './browser.ts';

export interface Connection {
  /** The Pinboard origin, e.g. `https://pins.example.com` (no path). */
  server: string;
  /** A write token (`pb_…`), or null until connected. */
  token: string | null;
  /** The user the token acts as (checked with the server when it was stored). */
  username: string | null;
}

export interface BoardRef {
  id: number;
  name: string;
}

const KEYS = { server: 'server', token: 'token', username: 'username', recent: 'recentBoards' } as const;
/** How many recently used boards the pickers put first. */
export const RECENT_BOARDS = 6;

export async function readConnection(): Promise<Connection> {
  const stored = await browser.storage.local.get([KEYS.server, KEYS.token, KEYS.username]);
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return { server: text(stored[KEYS.server]) ?? '', token: text(stored[KEYS.token]), username: text(stored[KEYS.username]) };
}

/** A new server forgets the old token and boards: they belong to another account. */
export async function setServer(server: string): Promise<void> {
  const current = await readConnection();
  if (current.server === server) return;
  await browser.storage.local.set({ [KEYS.server]: server });
  await browser.storage.local.remove([KEYS.token, KEYS.username, KEYS.recent]);
}

export async function setToken(token: string, username: string): Promise<void> {
  const current = await readConnection();
  if (current.username !== username) await browser.storage.local.remove(KEYS.recent);
  await browser.storage.local.set({ [KEYS.token]: token, [KEYS.username]: username });
}

export async function forgetToken(): Promise<void> {
  await browser.storage.local.remove([KEYS.token, KEYS.username, KEYS.recent]);
}

export async function recentBoards(): Promise<BoardRef[]> {
  const stored = (await browser.storage.local.get(KEYS.recent))[KEYS.recent];
  if (!Array.isArray(stored)) return [];
  return stored.filter((b): b is BoardRef => typeof b?.id === 'number' && typeof b?.name === 'string');
}

/** Puts a board first among the recent ones (after a save to it, or its creation). */
export async function rememberBoardUsed(board: BoardRef): Promise<void> {
  const rest = (await recentBoards()).filter((b) => b.id !== board.id);
  await browser.storage.local.set({ [KEYS.recent]: [board, ...rest].slice(0, RECENT_BOARDS) });
}

/** Drops a board that is gone (the server said 404). */
export async function dropBoard(id: number): Promise<void> {
  await browser.storage.local.set({ [KEYS.recent]: (await recentBoards()).filter((b) => b.id !== id) });
}

/**
 * The origin of an address as typed ("pins.example.com", "http://localhost:8080/"), or null when it
 * is not an http(s) address. A bare host gets https.
 */
export function serverOrigin(typed: string): string | null {
  const trimmed = typed.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}
