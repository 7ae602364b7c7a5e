// One description of the loading grid for both of its renderings: the React SkeletonGrid, and the
// static shell that index.html shows before any script has run (vite.config.ts writes it in at
// build time). Both use the same classes, so app.css alone decides the columns at every width.
import { DEFAULT_ASPECT } from './aspect.ts';

/** Placeholder cards: enough to fill a large screen's first view. */
export const SKELETON_CARDS = 18;

/** The static shell: the navigation bar's frame and logo, and the grid skeleton (HTML). */
export function staticShellHtml(): string {
  const card =
    `<div class="skeleton-card" aria-hidden="true"><div class="skeleton-card__image" style="aspect-ratio:${DEFAULT_ASPECT}"></div>` +
    '<div class="skeleton-card__line"></div><div class="skeleton-card__line skeleton-card__line--short"></div></div>';
  return (
    // The logo is drawn (not only its text, which phones hide): the first contentful paint.
    '<header class="nav"><nav class="nav__inner" aria-label="Main"><a href="/" class="nav__logo">' +
    '<svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><circle cx="16" cy="16" r="16" fill="currentColor"/>' +
    '<path d="M16 7a6 6 0 0 0-2.2 11.6L12.5 26h1.9l1.4-6.1A6 6 0 1 0 16 7z" fill="#fff"/></svg><span>Pinboard</span></a></nav></header>' +
    `<main id="main" class="page"><div class="skeleton-grid"><p class="visually-hidden" role="status">Loading…</p>${card.repeat(SKELETON_CARDS)}</div></main>`
  );
}
