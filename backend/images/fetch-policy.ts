import type { SafeFetchReason } from './safe-fetch.ts';

// What pins (creating one) and the fetch job (running it) agree on about fetching a pin's picture by URL.

/** The queue group a picture fetch belongs to: its user's (the demo seed's pictures have their own). */
export function fetchGroup(userId: number | undefined): string {
  return userId === undefined ? 'seed' : `user:${userId}`;
}

/** Refusals that say the address itself is one the server will not fetch: not to be shown to anyone either. */
export const REFUSED_ADDRESS: ReadonlySet<SafeFetchReason> = new Set(['blocked_address', 'bad_port', 'bad_scheme']);
