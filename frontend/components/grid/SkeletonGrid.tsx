import { SKELETON_COLUMNS, SKELETON_ROWS, skeletonShape } from './skeleton.ts';

/**
 * Placeholder cards while a grid's first page loads: the shape of the grid to come — the same
 * columns as the masonry at this width (container queries on the grid's own width in grid.css, so
 * even the first paint has them) and cards of varied heights — so nothing jumps when the pins
 * arrive. The loading text is there for screen readers. index.html shows the same cards before
 * the scripts have run (skeleton.ts).
 */
export function SkeletonGrid({ text }: { text: string }) {
  return (
    <div className="skeleton-grid">
      <p className="visually-hidden" role="status">
        {text}
      </p>
      <div className="skeleton-grid__columns" aria-hidden="true">
        {Array.from({ length: SKELETON_COLUMNS }, (_, column) => (
          <div key={column} className="skeleton-grid__column">
            {Array.from({ length: SKELETON_ROWS }, (_, row) => (
              <div key={row} className="skeleton-card" data-testid="skeleton-card">
                <div className="skeleton-card__image" style={{ aspectRatio: String(skeletonShape(column, row)) }} />
                <div className="skeleton-card__line" />
                <div className="skeleton-card__line skeleton-card__line--short" />
              </div>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
