import { loadConfig } from '../../backend/config.ts';
import { answerStatsRequests } from '../../backend/instance-stats.ts';
import { startServer } from '../../backend/server.ts';
import { createTestJobTable, testJobRuns, testJobSetup } from './test-jobs.ts';

// backend/main.ts with the test jobs (tests/support/test-jobs.ts) registered: an app process for
// the job queue's process tests (startAppProcess's `entry`). Same protocol: PORT from the
// environment, {type: 'ready'} over IPC, a graceful stop and exit 0 on SIGTERM. The test drives
// the queue over IPC too (an embedded instance's database is inside the process):
//   {type: 'job', ask: 'send', ref, data} → {type: 'job', ref, result: <job id>}
//   {type: 'job', ask: 'get', ref, id}    → {type: 'job', ref, result: <JobRecord | null>}
//   {type: 'job', ask: 'runs', ref, key?} → {type: 'job', ref, result: <TestJobRun[]>}
// (a failure answers {type: 'job', ref, error}).
const server = await startServer(loadConfig(), { jobs: testJobSetup });
await createTestJobTable(server.database.db);

interface JobAsk {
  type: 'job';
  ask: 'send' | 'get' | 'runs';
  ref: number;
  data?: unknown;
  id?: string;
  key?: string;
}

process.on('message', (message: unknown) => {
  const m = message as Partial<JobAsk>;
  if (m.type !== 'job') return;
  const { db } = server.database;
  const answer = async () => {
    if (m.ask === 'send') return server.jobs.send(db, 'test.record', m.data);
    if (m.ask === 'get') return server.jobs.get('test.record', m.id ?? '');
    return testJobRuns(db, m.key);
  };
  answer().then(
    (result) => process.send?.({ type: 'job', ref: m.ref, result }),
    (error: unknown) => process.send?.({ type: 'job', ref: m.ref, error: String(error) }),
  );
});

answerStatsRequests(server);
let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void server.close().then(() => process.exit(0));
});
