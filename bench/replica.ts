import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startAppProcess } from '../scripts/lib/processes.ts';
import { replicaAppEnv, startReplicatedPostgres, writeThenReadPairs } from '../tests/support/replica.ts';

// `npm run bench:replica [-- --pairs 10000 --writers 10]`: read-your-writes over a read replica
// (docs/operations.md#a-read-replica). A private primary and its streaming replica
// (tests/support/replica.ts), one instance reading from both; each writer creates or edits a pin
// and reads it straight back through the API. Prints the time, which database answered the reads,
// and the reads that missed their write (exit 1 if any: that is a bug, not a timing).

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '10000' },
    writers: { type: 'string', default: '10' },
  },
});
const pairs = Number(values.pairs);
const writers = Number(values.writers);

const databases = await startReplicatedPostgres();
const app = await startAppProcess(replicaAppEnv(databases, { JOB_WORKERS: 'false' }));

try {
  const { ms, violations, answeredBy } = await writeThenReadPairs(app.url, { pairs, writers });
  console.log(`${pairs} write-then-read pairs, ${writers} writers at once: ${(ms / 1000).toFixed(1)} s (${((pairs * 1000) / ms).toFixed(0)} pairs/s; load ${loadavg()[0]?.toFixed(1)})`);
  console.log(`reads answered by the replica ${answeredBy.replica}, the primary ${answeredBy.primary}`);
  console.log(`reads missing their write: ${violations.length}`);
  for (const line of violations.slice(0, 10)) console.log(`  ${line}`);
  process.exitCode = violations.length ? 1 : 0;
} finally {
  await app.stop();
  await databases.close();
}
