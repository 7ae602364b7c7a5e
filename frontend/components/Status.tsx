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
