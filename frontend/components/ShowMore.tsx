import type { ListStatus } from '../state/lists.ts';

/** The "Show more" button under a paged list that is not a grid (boards, comments). */
export function ShowMore({ hasMore, status, onMore, text, loadingText }: { hasMore: boolean; status: ListStatus; onMore: () => void; text: string; loadingText: string }) {
  if (!hasMore && status !== 'error') return null;
  const loading = status === 'loading';
  return (
    <div className="show-more">
      <button type="button" className="button button--secondary" onClick={onMore} disabled={loading} aria-busy={loading}>
        {loading ? loadingText : status === 'error' ? 'Try again' : text}
      </button>
    </div>
  );
}
