import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { type FaultCluster, histogram, startFaultCluster } from '../support/faults.ts';
import { type Answer, mapLimit, repeatUntil, signUpMany, sleep, summary, timed } from './helpers.ts';

// SIGKILL of one instance while several users keep creating pins through nginx: a write that was
// answered 2xx must be stored (readable afterwards). Only the writes in flight on the killed
// instance may fail (nginx does not re-send a POST that reached an instance); every later write
// goes to the survivor.

let cluster: FaultCluster;

beforeAll(async () => {
  cluster = await startFaultCluster();
});
afterAll(async () => {
  await cluster?.close();
});

test('SIGKILL during a write load through nginx: every acknowledged write is stored (0 lost)', async () => {
  onTestFailed(() => cluster.printLogs());
  const WRITERS = 6;
  const writers = await signUpMany(cluster.url, WRITERS, 'load');
  const answers: Array<{ title: string; sentAt: number; answer: Answer<Pin> }> = [];
  const start = performance.now();
  const killAt = start + 1500;
  const endAt = start + 4500;
  let killedAt = 0;

  const load = writers.map(({ client }, w) => {
    let n = 0;
    return repeatUntil(endAt, async () => {
      n += 1;
      const title = `w${w}-${n}`;
      const sentAt = performance.now();
      const answer = await timed(() => client.post<Pin>('/api/pins/', { title, imageUrl: 'https://a.test/load.png' }));
      answers.push({ title, sentAt, answer });
    });
  });
  const kill = (async () => {
    await sleep(killAt - performance.now());
    killedAt = performance.now();
    cluster.apps[1]?.child.kill('SIGKILL');
  })();
  await Promise.all([...load, kill]);
  await cluster.apps[1]?.exited;

  const acknowledged = answers.filter((a) => a.answer.status >= 200 && a.answer.status < 300);
  const failed = answers.filter((a) => !(a.answer.status >= 200 && a.answer.status < 300));
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
  // Failed writes may still have been stored (killed after the commit, before the answer): the
  // user saw an error and may retry; an Idempotency-Key makes that retry safe.
  const failedTitles = failed.map((f) => f.title);
  const storedAnyway = failedTitles.length
    ? (await cluster.query<{ title: string }>('select title from pins where title = any($1)', [failedTitles])).length
    : 0;
  const afterKill = answers.filter((a) => a.sentAt > killedAt + 100);

  console.log(
    `SIGKILL under write load (${WRITERS} writers, ${((endAt - start) / 1000).toFixed(1)} s, kill at ${((killedAt - start) / 1000).toFixed(1)} s): ` +
      `${answers.length} writes, ${acknowledged.length} acknowledged, ${failed.length} failed (${storedAnyway} of them stored anyway), ${lost.length} lost`,
  );
  console.log(`statuses ${JSON.stringify(histogram(answers.map((a) => a.answer)))}; latency ${summary(answers.map((a) => a.answer.ms))}`);
  console.log(`writes sent ≥100 ms after the kill: ${afterKill.length}, statuses ${JSON.stringify(histogram(afterKill.map((a) => a.answer)))}`);
  for (const f of failed) console.log(`  failed: ${f.title} at ${((f.sentAt - start) / 1000).toFixed(2)} s → ${f.answer.status} ${f.answer.error ?? JSON.stringify(f.answer.response?.body)}`);

  expect(lost).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(WRITERS * 5);
  // At most one write per writer was in flight on the killed instance.
  expect(failed.length).toBeLessThanOrEqual(WRITERS);
  expect(afterKill.length).toBeGreaterThan(0);
  expect(afterKill.every((a) => a.answer.status === 201)).toBe(true);
});
