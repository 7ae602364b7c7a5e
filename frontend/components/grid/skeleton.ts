// One description of the loading grid for both of its renderings: the React SkeletonGrid, and the
// static shell that index.html shows before any script has run (vite.config.ts writes it in at
// build time). Both use the same classes, so grid.css alone decides the columns at every width: as
// many as the masonry will have (container queries on the grid's own width, docs/grid.md).

/** The most columns a grid has (an 1,800 px page: ./columns.ts); grid.css hides the ones past the width's. */
export const SKELETON_COLUMNS = 8;
/** Placeholder cards per column: enough to fill a large screen's first view. */
export const SKELETON_ROWS = 4;
/** Width / height of the placeholder cards, varied as pins are; each column starts elsewhere. */
const SHAPES = [0.8, 1.25, 0.66, 1, 0.75, 1.5, 0.9];

/** The shape of the placeholder card at (column, row). */
export function skeletonShape(column: number, row: number): number {
  return SHAPES[(column * 3 + row) % SHAPES.length] as number;
}

/** The pin page while its pin loads: its image box and its row of actions, in the page's own layout (HTML). */
export function pinSkeletonHtml(): string {
  const block = (name: string) => `<div class="skeleton-block ${name}"></div>`;
  return (
    '<p class="visually-hidden" role="status">Loading pin...</p>' +
    '<article class="pin-detail pin-skeleton" aria-hidden="true" data-testid="pin-skeleton">' +
    `<div class="pin-detail__media" style="--aspect:0.8"><div class="pin-detail__frame">${block('pin-skeleton__image')}</div></div>` +
    '<div class="pin-detail__info"><div class="pin-detail__toolbar pin-skeleton__toolbar">' +
    `${block('pin-skeleton__round')}${block('pin-skeleton__pill')}${block('pin-skeleton__pill pin-skeleton__pill--end')}</div>` +
    `${block('pin-skeleton__title')}${block('pin-skeleton__line')}${block('pin-skeleton__line pin-skeleton__line--short')}</div></article>`
  );
}

/** The navigation bar's frame and logo, as the static shell and the route's fallback draw it (HTML). */
export function navFrameHtml(): string {
  // The logo is drawn (not only its text, which phones hide): the first contentful paint.
  return (
    '<nav class="nav__inner" aria-label="Main"><a href="/" class="nav__logo">' +
    '<svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><circle cx="16" cy="16" r="16" fill="currentColor"/>' +
    '<path d="M16 7a6 6 0 0 0-2.2 11.6L12.5 26h1.9l1.4-6.1A6 6 0 1 0 16 7z" fill="#fff"/></svg><span>Pinboard</span></a></nav>'
  );
}

/**
 * The static shell: the navigation bar's frame and logo, and both skeletons — the grid's and, for
 * a pin's address, the pin page's — of which grid.css shows one: the server marks a pin's page
 * with PIN_SHELL_CLASS (contract/home.ts) (HTML).
 */
export function staticShellHtml(): string {
  const card = (column: number, row: number) =>
    `<div class="skeleton-card" data-testid="skeleton-card"><div class="skeleton-card__image" style="aspect-ratio:${skeletonShape(column, row)}"></div>` +
    '<div class="skeleton-card__line"></div><div class="skeleton-card__line skeleton-card__line--short"></div></div>';
  const columns = Array.from(
    { length: SKELETON_COLUMNS },
    (_, column) => `<div class="skeleton-grid__column">${Array.from({ length: SKELETON_ROWS }, (_, row) => card(column, row)).join('')}</div>`,
  ).join('');
  return (
    `<header class="nav">${navFrameHtml()}</header>` +
    '<main id="main" class="page">' +
    `<div class="skeleton-grid shell-page--grid"><p class="visually-hidden" role="status">Loading…</p>` +
    `<div class="skeleton-grid__columns" aria-hidden="true">${columns}</div></div>` +
    `<div class="pin-detail-page shell-page--pin">${pinSkeletonHtml()}</div></main>`
  );
}
