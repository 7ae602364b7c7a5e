import type { ById } from './atoms.ts';

export function toById<T extends { id: number }>(items: readonly T[]): ById<T> {
  const out: ById<T> = {};
  for (const item of items) out[item.id] = item;
  return out;
}

export function without<T>(map: ById<T>, id: number): ById<T> {
  if (!(id in map)) return map;
  const next = { ...map };
  delete next[id];
  return next;
}

/** True when `incoming` is older than `current` (by updated_at), so it must not overwrite it. */
export function isStale(current: { updated_at?: string } | undefined, incoming: { updated_at?: string }): boolean {
  if (!current?.updated_at || !incoming.updated_at) return false;
  return Date.parse(incoming.updated_at) < Date.parse(current.updated_at);
}
