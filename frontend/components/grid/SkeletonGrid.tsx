import { DEFAULT_ASPECT } from './aspect.ts';
import { SKELETON_CARDS } from './skeleton.ts';

/**
 * Placeholder cards while a grid's first page loads: the shape of the grid to come, so nothing
 * jumps when it arrives. The loading text is there for screen readers. index.html shows the same
 * cards before the scripts have run (skeleton.ts).
 */
export function SkeletonGrid({ text }: { text: string }) {
  return (
    <div className="skeleton-grid">
      <p className="visually-hidden" role="status">
        {text}
      </p>
      {Array.from({ length: SKELETON_CARDS }, (_, i) => (
        <div key={i} className="skeleton-card" aria-hidden="true" data-testid="skeleton-card">
          <div className="skeleton-card__image" style={{ aspectRatio: String(DEFAULT_ASPECT) }} />
          <div className="skeleton-card__line" />
          <div className="skeleton-card__line skeleton-card__line--short" />
        </div>
      ))}
    </div>
  );
}
