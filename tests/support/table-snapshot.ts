import { type Kysely, sql } from 'kysely';
import { likesCountOfPins } from '../../backend/pins/likes-count.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Columns the server's jobs write whenever they run, not the request under test: why a pin's
 * picture could not be fetched (backend/pins/image-fetch-job.ts), and a pin's folded likes and
 * their version (counters.fold and pins.likes-settle: docs/data-model.md, "Hot counters are
 * deltas"). A pin's likes as a reader sees them (`likes_seen`, the folded count plus its pending
 * deltas) stay in, so a request that changes them still shows.
 */
const JOB_COLUMNS = new Set(['image_failure', 'likes_count', 'likes_version']);

/** Every row of each table, as sorted JSON lines: a row a request changed, added or removed shows up. */
export async function tableSnapshot<T extends string>(db: Kysely<DB>, tables: readonly T[]): Promise<Record<T, string[]>> {
  const entries = await Promise.all(
    tables.map(async (table) => {
      const query = table === 'pins' ? sql<Record<string, unknown>>`select pins.*, ${likesCountOfPins} as likes_seen from pins` : sql<Record<string, unknown>>`select * from ${sql.table(table)}`;
      const { rows } = await query.execute(db);
      return [table, rows.map((row) => JSON.stringify(Object.entries(row).filter(([column]) => !JOB_COLUMNS.has(column)))).sort()] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<T, string[]>;
}
