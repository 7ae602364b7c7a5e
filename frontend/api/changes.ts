import type { ChangesAnswer } from '../../contract/changes.ts';
import { call } from './endpoint.ts';

/** GET /api/changes?since=N: what this tab missed after N (contract/changes.ts). */
export function fetchChanges(since: number): Promise<ChangesAnswer> {
  // The schema leaves a change's `data` open; contract/changes.ts's type names each event's payload.
  return call('GET /api/changes', { query: { since } }) as Promise<ChangesAnswer>;
}
