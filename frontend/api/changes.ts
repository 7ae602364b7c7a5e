import type { ChangesAnswer } from '../../contract/changes.ts';
import { api } from './client.ts';

/** GET /api/changes?since=N: what this tab missed after N (contract/changes.ts). */
export function fetchChanges(since: number): Promise<ChangesAnswer> {
  return api<ChangesAnswer>('GET', `/api/changes?since=${since}`);
}
