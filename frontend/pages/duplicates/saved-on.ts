/** "March 3, 2026": the day a pin was saved, in the reader's own time zone. */
export function savedOn(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
}
