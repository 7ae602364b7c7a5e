import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

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
export async function pgbenchPairs(databaseUrl: string, setup: PgbenchSetup, seconds: number): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pinboard-pgbench-'));
  try {
    const script = path.join(dir, 'favorite-pair.sql');
    writeFileSync(script, SCRIPT);
    const args = ['-n', '-c', String(setup.clients), '-j', '2', '-T', String(Math.max(1, Math.round(seconds))), '-f', script];
    for (const [name, value] of Object.entries({ minuser: setup.minUser, minpin: setup.minPin, maxpin: setup.maxPin })) args.push('-D', `${name}=${value}`);
    args.push(databaseUrl);
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited with ${code}:\n${text}`))));
    });
    const tps = /tps = ([0-9.]+) \(without initial connection time\)/.exec(output)?.[1];
    if (!tps) throw new Error(`no tps in pgbench's output:\n${output}`);
    return Number(tps);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
