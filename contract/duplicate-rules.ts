import type { DuplicatePin } from './duplicates.ts';

// The words of the warning for a picture saved already (docs/duplicates.md), zod-free so the
// client and the browser extension take them as values.

/**
 * The warning's words, the same wherever a picture comes in (the New Pin form, the pin builder,
 * bulk upload, the browser extension): "You saved this on March 3, 2026 to Recipes".
 */
export const SAVED_ALREADY = { saveAnyway: 'Save anyway', openIt: 'Open it', badge: 'Already saved' } as const;

/** "March 3, 2026": the day a pin was saved, in the reader's own time zone. */
export function savedOn(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
}

/** "You saved this on {date} to {board}" ("… on {date}" when the pin is on no board the reader sees). */
export function savedAlreadyWords(duplicate: DuplicatePin): string {
  const board = duplicate.boards[0];
  return `You saved this on ${savedOn(duplicate.pin.created_at)}${board ? ` to ${board.name}` : ''}`;
}
