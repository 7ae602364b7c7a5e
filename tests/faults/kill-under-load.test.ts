import { beforeAll, expect, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { histogram } from '../support/faults.ts';
import { useFaultCluster } from '../support/use-fault-cluster.ts';
import { type Answer, loadLoop, mapLimit, signUpMany, summary, timed } from './helpers.ts';

// SIGKILL of one instance while several users keep creating pins through nginx: a write that was
// answered 2xx must be stored (readable afterwards). Only the writes in flight on the killed
// instance may fail (nginx does not re-send a POST that reached an instance); every later write
// goes to the survivor. The scenario runs once; each test checks one promise.

const faults = useFaultCluster();
let scene: Awaited<ReturnType<typeof killOneInstanceUnderWrites>>;
beforeAll(async () => {
  scene = await killOneInstanceUnderWrites();
});

const WRITERS = 6;
/** Writes each writer sends before the kill (about 1.5 s), and after the instance has exited. */
const ROUNDS_BEFORE = 20;
const ROUNDS_AFTER = 40;

async function killOneInstanceUnderWrites() {
  const { cluster } = faults;
  const victim = cluster.apps[1];
  if (!victim) throw new Error('two instances expected');
  const writers = await signUpMany(cluster.url, WRITERS, 'load');
  const answers: Array<{ title: string; sentAt: number; answer: Answer<Pin> }> = [];
  const start = performance.now();
  const loops = writers.map(({ client }, w) => {
    let n = 0;
    return loadLoop(async () => {
      n += 1;
      const title = `w${w}-${n}`;
      const sentAt = performance.now();
      const answer = await timed(() => client.post<Pin>('/api/pins/', { title, imageUrl: 'https://a.test/load.png' }));
      answers.push({ title, sentAt, answer });
    });
  });
  await Promise.all(loops.map((loop) => loop.reached(ROUNDS_BEFORE)));
  const killedAt = performance.now();
  victim.child.kill('SIGKILL');
  await victim.exited;
  // From here on the instance's sockets are closed: a new connection to it is refused, and nginx
  // passes the request on to the survivor.
  const exitedAt = performance.now();
  await Promise.all(loops.map((loop) => loop.finish(ROUNDS_AFTER)));
  return { cluster, writers, answers, start, killedAt, exitedAt, end: performance.now() };
}

const isOk = (status: number) => status >= 200 && status < 300;

test('every acknowledged write is stored (0 lost)', async () => {
  const { writers, answers, start, killedAt, end } = scene;
  const acknowledged = answers.filter((a) => isOk(a.answer.status));
  // Readable afterwards, through nginx (only the survivor is left).
  const reader = writers[0]?.client;
  if (!reader) throw new Error('no writer');
  const lost = (
    await mapLimit(acknowledged, 8, async ({ title, answer }) => {
      const id = answer.response?.body.id;
      const read = await reader.get<Pin>(`/api/pins/${id}`);
      return read.status === 200 && read.body.title === title ? undefined : `${title} (#${id}: ${read.status})`;
    })
  ).filter((entry) => entry !== undefined);
  console.log(
    `SIGKILL under write load (${WRITERS} writers, ${((end - start) / 1000).toFixed(1)} s, kill at ${((killedAt - start) / 1000).toFixed(1)} s): ` +
      `${answers.length} writes, ${acknowledged.length} acknowledged, ${lost.length} lost; ` +
      `statuses ${JSON.stringify(histogram(answers.map((a) => a.answer)))}; latency ${summary(answers.map((a) => a.answer.ms))}`,
  );
  expect(lost).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(WRITERS * 5);
});

test('at most one write per writer fails: the one in flight on the killed instance', async () => {
  const { cluster, answers, start } = scene;
  const failed = answers.filter((a) => !isOk(a.answer.status));
  // Failed writes may still have been stored (killed after the commit, before the answer): the
  // user saw an error and may retry; an Idempotency-Key makes that retry safe.
  const failedTitles = failed.map((f) => f.title);
  const storedAnyway = failedTitles.length ? (await cluster.query<{ title: string }>('select title from pins where title = any($1)', [failedTitles])).length : 0;
  console.log(`${failed.length} writes failed (${storedAnyway} of them stored anyway)`);
  for (const f of failed) console.log(`  failed: ${f.title} at ${((f.sentAt - start) / 1000).toFixed(2)} s → ${f.answer.status} ${f.answer.error ?? JSON.stringify(f.answer.response?.body)}`);
  expect(failed.length).toBeLessThanOrEqual(WRITERS);
});

test('every write sent after the killed instance exited succeeds on the survivor', () => {
  const { answers, exitedAt } = scene;
  const afterExit = answers.filter((a) => a.sentAt > exitedAt);
  console.log(`writes sent after the killed instance exited: ${afterExit.length}, statuses ${JSON.stringify(histogram(afterExit.map((a) => a.answer)))}`);
  expect(afterExit.length).toBeGreaterThan(0);
  expect(afterExit.filter((a) => a.answer.status !== 201)).toEqual([]);
});
