import { SESSION_DATA_ID, type ServedSession } from '../../contract/home.ts';
import type { User } from '../../contract/index.ts';
import type { SiteSettings } from '../../contract/invites.ts';
import { call } from './endpoint.ts';

function isUser(value: unknown): value is User {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number';
}

/** The session check's answer as the client keeps it: who is signed in, and how the site is run when it said. */
export interface SessionAnswer {
  user: User | null;
  site: SiteSettings | undefined;
}

const VISIBILITIES: readonly string[] = ['public', 'members'];
const SIGNUPS: readonly string[] = ['open', 'invite', 'closed'];

function siteOf(raw: unknown): SiteSettings | undefined {
  if (!raw || typeof raw !== 'object' || !('site' in raw)) return undefined;
  const site = (raw as { site: unknown }).site;
  if (!site || typeof site !== 'object') return undefined;
  const { visibility, signups } = site as { visibility?: unknown; signups?: unknown };
  if (typeof visibility !== 'string' || !VISIBILITIES.includes(visibility) || typeof signups !== 'string' || !SIGNUPS.includes(signups)) return undefined;
  return site as SiteSettings;
}

/**
 * The session check's answer this document's HTML came with (contract/home.ts), taken once:
 * undefined when there is none (or it was taken), and the page asks GET /api/auth/ instead.
 */
export function takeServedSession(): SessionAnswer | undefined {
  const element = document.getElementById(SESSION_DATA_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const served = JSON.parse(element.textContent ?? '') as ServedSession;
    const user = isUser(served.user) ? served.user : served.user === null ? null : undefined;
    return user === undefined ? undefined : { user, site: siteOf(served) };
  } catch {
    return undefined; // not what the server writes: ask instead
  }
}

/** GET /api/auth/ answers {user, site} or the user itself; anything else means "no session". */
export async function fetchSessionAnswer(): Promise<SessionAnswer> {
  // Read as unknown: an answer of another shape is "no session", not an error.
  const raw: unknown = await call('GET /api/auth/');
  if (raw && typeof raw === 'object' && 'user' in raw) {
    const user = (raw as { user: unknown }).user;
    return { user: isUser(user) ? user : null, site: siteOf(raw) };
  }
  return { user: isUser(raw) ? raw : null, site: undefined };
}

export async function fetchSession(): Promise<User | null> {
  return (await fetchSessionAnswer()).user;
}

export function login(email: string, password: string) {
  return call('POST /api/auth/login', { body: { email, password } });
}

/** The demo button: the server signs the demo account in, so no password ships to the browser. */
export function demoLogin() {
  return call('POST /api/auth/demo');
}

export function signup(body: { email: string; username: string; password: string; invite?: string }) {
  return call('POST /api/auth/signup', { body });
}

export async function logout(): Promise<void> {
  await call('GET /api/auth/logout');
}
