import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { readChanges } from '../backend/changes/changes.service.ts';
import { transactionBase } from '../backend/changes/position.ts';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';
import { pgbenchTps } from './lib/pgbench.ts';

// `npm run bench:change-log [-- --clients 20 --seconds 5 --rounds 2]`: what the change log costs a
// write (docs/change-log.md, "Positions without a lock"). pgbench, `clients` connections, on a new
// database of the machine's Postgres, each transaction:
//   1. one insert (a write with no log), the baseline;
//   2. the same plus a log row numbered from a counter row locked to the commit (the log before);
//   3. the same plus a log row at its position (the statement backend/changes/write.ts runs);
// while (3) runs, a reader pages GET /api/changes's query (readChanges) from its cursor in a loop:
// it prints the reader's latency and checks that it read every row (3) wrote, once, in order.
// A benchmark: it prints figures and never fails on them.

const { values } = parseArgs({ options: { clients: { type: 'string', default: '20' }, seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '2' } } });
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
for (const [name, n] of Object.entries({ clients: CLIENTS, seconds: SECONDS, rounds: ROUNDS })) {
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
}

const cleanups = cleanupsOnExit();
const created = await createTestDatabase();
cleanups.push(() => created.drop());
const database = await openDatabase({ kind: 'postgres', url: created.url }, { poolMax: 2 });
cleanups.push(() => database.close());
const { db } = database;
await migrateToLatest(db);
await sql`create table bench_writes (id bigserial primary key, note text not null)`.execute(db);
await sql`create table bench_counter (seq bigint not null)`.execute(db);
await sql`insert into bench_counter values (0)`.execute(db);

const WRITE = `insert into bench_writes (note) values ('a write');`;
const LOG_ROW = `'pin:deleted', '{"pinId": 1}'::jsonb, true`;
const SCRIPTS = {
  alone: `begin;\n${WRITE}\nend;\n`,
  counter: `begin;\n${WRITE}\nwith counter as (update bench_counter set seq = seq + 1 returning seq)\n  insert into changes (seq, event, data, public) select counter.seq, ${LOG_ROW} from counter;\nend;\n`,
  position: `begin;\n${WRITE}\ninsert into changes (seq, event, data, public) select ${sql`${transactionBase}`.compile(db).sql} + 1, ${LOG_ROW};\nend;\n`,
};

/** Pages the log from `since` as a client does until `stop()` says so and a last pull found nothing new. */
function readAlong(since: number): { stop(): Promise<{ seqs: number[]; latencies: number[] }> } {
  let writing = true;
  const seqs: number[] = [];
  const latencies: number[] = [];
  const done = (async () => {
    let cursor = since;
    for (let last = false; ;) {
      if (!writing) last = true;
      const started = performance.now();
      const answer = await readChanges(db, undefined, cursor);
      latencies.push(performance.now() - started);
      if ('reset' in answer) throw new Error(`the reader was told to reset at ${cursor}`);
      seqs.push(...answer.changes.map((c) => c.seq));
      const next = answer.changes.length === 1_000 ? (answer.changes.at(-1)?.seq ?? answer.lastSeq) : answer.lastSeq;
      const moved = next > cursor;
      cursor = Math.max(cursor, next);
      if (last && !moved) return { seqs, latencies };
    }
  })();
  return {
    stop() {
      writing = false;
      return done;
    },
  };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const head = async () => Number((await sql<{ seq: string | null }>`select max(seq) as seq from changes`.execute(db)).rows[0]?.seq ?? 0);

console.log(`bench:change-log — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start; ${CLIENTS} pgbench clients, ${SECONDS} s per script, ${ROUNDS} rounds`);
const results: Record<keyof typeof SCRIPTS, number[]> = { alone: [], counter: [], position: [] };
let reader = { seen: 0, written: 0, ordered: true, duplicates: 0, latencies: [] as number[] };
for (let round = 1; round <= ROUNDS; round++) {
  for (const name of Object.keys(SCRIPTS) as Array<keyof typeof SCRIPTS>) {
    const from = await head();
    const reading = name === 'position' ? readAlong(from) : undefined;
    const tps = await pgbenchTps(created.url, { script: SCRIPTS[name], clients: CLIENTS, seconds: SECONDS });
    results[name].push(tps);
    if (reading) {
      const { seqs, latencies } = await reading.stop();
      const written = Number((await sql<{ n: string }>`select count(*) as n from changes where seq > ${from}`.execute(db)).rows[0]?.n);
      reader = {
        seen: reader.seen + seqs.length,
        written: reader.written + written,
        ordered: reader.ordered && seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number)),
        duplicates: reader.duplicates + seqs.length - new Set(seqs).size,
        latencies: [...reader.latencies, ...latencies],
      };
    }
    console.log(`  round ${round}, ${name}: ${tps.toFixed(0)} transactions/s`);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const alone = median(results.alone);
console.log('\n=== bench:change-log results ===');
console.log(`load average at the end ${loadavg()[0]?.toFixed(1)}; medians of ${ROUNDS} rounds, ${CLIENTS} clients`);
console.log(`a write alone                                   ${alone.toFixed(0).padStart(6)} tx/s  100 %`);
for (const [name, label] of [
  ['counter', 'plus a log row from a counter locked to commit'],
  ['position', 'plus a log row at its position (now)'],
] as const) {
  const tps = median(results[name]);
  console.log(`${label.padEnd(48)}${tps.toFixed(0).padStart(6)} tx/s  ${((100 * tps) / alone).toFixed(0).padStart(3)} %`);
}
console.log(`position over counter: ${(median(results.position) / median(results.counter)).toFixed(2)}×`);
const sorted = [...reader.latencies].sort((a, b) => a - b);
console.log(
  `reader beside the writers: ${reader.seen} of ${reader.written} changes read, ${reader.duplicates} twice, ${reader.ordered ? 'in increasing order' : 'OUT OF ORDER'}; ` +
    `${sorted.length} pulls, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms`,
);
await cleanups.run();
