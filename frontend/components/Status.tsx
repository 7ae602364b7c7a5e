import type { ReactNode } from 'react';

export function Loading({ text = 'Loading…' }: { text?: string }) {
  return (
    <p className="status status--loading" role="status">
      {text}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="status status--empty">{children}</div>;
}

/** Load failures are logged to the console (docs/product.md §8); the screen only offers another try. */
export function RetryLoad({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="status">
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
