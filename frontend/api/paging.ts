// Every list call pages (docs/paging.md): the client sends `cursor` (the previous page's `nextCursor`)
// and optionally `limit`, and gets one page back with the next `nextCursor` (null on the last).

export interface PageParams {
  /** The previous page's `nextCursor`; absent or null for page one. */
  cursor?: string | null;
  /** Items per page (1–LIMITS.pageMax); the server's default when absent. */
  limit?: number;
}

/** `path` with the query string of `params` (undefined and null values are left out). */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) query.set(key, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** An answer's `nextCursor`, null when the server sent none (the last page). */
export function nextCursorOf(page: { nextCursor?: string | null }): string | null {
  return typeof page.nextCursor === 'string' && page.nextCursor ? page.nextCursor : null;
}
