import type { SafeFetchReason } from './safe-fetch.ts';

// What pins (creating one) and the import job (running it) agree on about imports by URL.

/** The queue group an import belongs to: its user's (the demo seed's pictures have their own). */
export function importGroup(userId: number | undefined): string {
  return userId === undefined ? 'seed' : `user:${userId}`;
}

/** Refusals that say the address itself is one the server will not fetch: not to be shown to anyone either. */
export const REFUSED_ADDRESS: ReadonlySet<SafeFetchReason> = new Set(['blocked_address', 'bad_port', 'bad_scheme']);
