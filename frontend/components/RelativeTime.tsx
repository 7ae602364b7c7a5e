import { useSyncExternalStore } from 'react';

// One minute ticker for every relative date on screen (not a timer per date).
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    now = Date.now();
    for (const notify of listeners) notify();
  }, 60_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const getNow = () => now;

/** "just now", "5 minutes ago", "2 hours ago", "3 days ago"; past a month, null (the date says it). */
export function relativeTime(iso: string, at: number): string | null {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return null;
  const minutes = Math.floor(Math.max(0, at - then) / 60_000);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (minutes < 1) return 'just now';
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return plural(hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < 30) return plural(days, 'day');
  return null;
}

/**
 * A date as the reader thinks of it: `label` (SPEC's month and year for comments) and how long ago,
 * with the exact date and time on hover and for assistive technology.
 */
export function RelativeTime({ iso, label }: { iso: string; label: string }) {
  const at = useSyncExternalStore(subscribe, getNow, getNow);
  const ago = relativeTime(iso, Math.max(at, Date.now()));
  const date = new Date(iso);
  const exact = Number.isNaN(date.getTime()) ? '' : date.toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short' });
  return (
    <time dateTime={iso} title={exact}>
      {label}
      {ago ? ` · ${ago}` : ''}
    </time>
  );
}
