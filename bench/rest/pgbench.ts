import pg from 'pg';
import { pgbenchTps } from '../lib/pgbench.ts';

// What Postgres alone does for the favorite write: pgbench calling the very two functions the app
// calls (favorite_add, then favorite_remove of the favorite it made) for its own user per client,
// on the same hot pins, with the app idle. The app's pairs per second over this is the share the
// HTTP, session, CSRF and live-event work leaves.

const SCRIPT = `\\set pin random(:minpin, :maxpin)
\\set user :minuser + :client_id
select favorite_id from favorite_add(:user, :pin) \\gset
select outcome from favorite_remove(:user, :favorite_id);
`;

export interface PgbenchSetup {
  minUser: number;
  minPin: number;
  maxPin: number;
  clients: number;
}

/** `clients` users of pgbench's own (consecutive ids, no favorites), and the hot pins' id range. */
export async function preparePgbench(databaseUrl: string, clients: number, hotIds: readonly number[]): Promise<PgbenchSetup> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number }>(
      `insert into users (email, username, username_skeleton, first_name, password_hash)
       select 'pgbench-' || g || '@bench.test', 'pgbench' || g, 'pgbench' || g, 'Pgbench', 'not a hash'
       from generate_series(1, $1::int) g order by g returning id`,
      [clients],
    );
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    if (ids.length !== clients || (ids.at(-1) as number) - (ids[0] as number) !== clients - 1) throw new Error('pgbench users did not get consecutive ids');
    return { minUser: ids[0] as number, minPin: Math.min(...hotIds), maxPin: Math.max(...hotIds), clients };
  } finally {
    await client.end();
  }
}

/** pgbench for `seconds`: favorite + unfavorite pairs per second (one script run is one pair). */
export function pgbenchPairs(databaseUrl: string, setup: PgbenchSetup, seconds: number): Promise<number> {
  return pgbenchTps(databaseUrl, {
    script: SCRIPT,
    clients: setup.clients,
    seconds,
    defines: { minuser: setup.minUser, minpin: setup.minPin, maxpin: setup.maxPin },
  });
}
