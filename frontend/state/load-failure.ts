// What a failed load tells the reader (docs/paging.md): that they are offline and it will load when
// they are back, or the server's own words. Screens show `message`, and offer "Try again" unless
// `offline` (then the connection's return retries it: ./connection-return.ts).
import { isApiError } from '../api/client.ts';
import { browserOffline } from './connection-return.ts';

export const OFFLINE_TEXT = "You're offline — this will load when you're back.";
/** A failure that carried no words of its own (a bug, an answer that was not JSON). */
export const LOAD_FAILED_TEXT = 'This could not be loaded.';

export interface LoadFailure {
  /** The browser had no network when it failed. */
  readonly offline: boolean;
  readonly message: string;
}

export function describeFailure(error: unknown): LoadFailure {
  if (browserOffline()) return { offline: true, message: OFFLINE_TEXT };
  const message = isApiError(error) ? error.body.message : '';
  // The client's stand-in for an answer without words ("Request failed with status 500") is no reason.
  const said = message && !/^Request failed with status \d+$/.test(message);
  return { offline: false, message: said ? message : LOAD_FAILED_TEXT };
}
