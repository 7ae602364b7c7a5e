import { type RawBuilder, sql } from 'kysely';

// Where a change sits in the log (docs/change-log.md, "Positions without a lock"). A change's `seq`
// is its transaction's id shifted left by POSITION_BITS plus its ordinal in that transaction: taken
// without waiting for any other writer. Transaction ids are handed out in start order, not commit
// order, so a reader is only served positions below the horizon, the oldest transaction that may
// still add a row: everything under it has committed (or never will), so a reader that goes on
// from a position it was given never misses a change.

/** Ordinals per transaction: 2^20 changes. Positions stay safe integers while ids are below 2^33. */
export const POSITION_BITS = 20;

/** The first position of the current transaction's changes is this + 1 (its ordinals start at 1). */
export const transactionBase: RawBuilder<string> = sql<string>`(pg_current_xact_id()::text::bigint << ${sql.lit(POSITION_BITS)})`;

/**
 * Positions below this are final. The transactions still open when the statement's snapshot was
 * taken bound it, except those known to run in another database of the cluster (they can never
 * write this log): one whose database cannot be told (it ended meanwhile, or the role may not see
 * other sessions) counts, which can only hold the horizon lower. With none open, every
 * transaction id below the snapshot's xmax has ended.
 */
export const horizon: RawBuilder<string> = sql<string>`(
  select coalesce(
    (select min(open.id) from pg_snapshot_xip(snapshot) as open(id)
     where not exists (
       select from pg_stat_activity as other
       where other.backend_xid = open.id::xid and other.datname <> current_database())),
    pg_snapshot_xmax(snapshot))::text::bigint << ${sql.lit(POSITION_BITS)}
  from pg_current_snapshot() as snapshot)`;

/**
 * No position at or above this has been handed out yet: a reader's cursor past it comes from
 * another log (a database restored elsewhere) and must start over.
 */
export const ceiling: RawBuilder<string> = sql<string>`((pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1) << ${sql.lit(POSITION_BITS)})`;
