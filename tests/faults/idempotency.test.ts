import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { signUpUser } from '../support/client.ts';
import { useFaultCluster } from '../support/use-fault-cluster.ts';
import { sameSessionOn } from './helpers.ts';

// A client whose POST /api/pins/ got no answer (the instance died, the network dropped) retries
// with the same Idempotency-Key. Through nginx the retry may reach the other instance: it must
// still get the first answer (201, same pin, `Idempotent-Replayed: true`) and no second row.

const faults = useFaultCluster();
const body = (title: string) => ({ title, imageUrl: 'https://a.test/i.png' });

test('an Idempotency-Key retry through nginx, on either instance, returns the same pin and creates one row', async () => {
  const { cluster } = faults;
  const { client } = await signUpUser(cluster.url, 'idem');
  const key = randomUUID();
  const title = `Idempotent ${key.slice(0, 8)}`;
  const send = (target = client) => target.request<Pin>('POST', '/api/pins/', { json: body(title), headers: { 'Idempotency-Key': key } });

  const first = await send();
  expect(first.status).toBe(201);
  // nginx's round-robin sends consecutive requests to alternate instances; and straight to each
  // instance, so the retry certainly meets the one that did not serve the first request.
  const retries = [await send(), await send(), ...(await Promise.all(cluster.apps.map((app) => send(sameSessionOn(app.url, client)))))];
  const rows = await cluster.query<{ id: number }>('select id from pins where title = $1', [title]);
  console.log(
    `Idempotency-Key: first ${first.status} #${first.body.id}; retries ${retries
      .map((r) => `${r.status} #${r.body.id} replayed=${r.headers.get('idempotent-replayed')}`)
      .join(', ')}; rows with that title: ${rows.length}`,
  );
  for (const retry of retries) {
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(first.body.id);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  }
  expect(rows).toHaveLength(1);
});

test('the same body with a new key is a new pin', async () => {
  const { cluster } = faults;
  const { client } = await signUpUser(cluster.url, 'idem');
  const send = () => client.request<Pin>('POST', '/api/pins/', { json: body('Twice, on purpose'), headers: { 'Idempotency-Key': randomUUID() } });
  const first = await send();
  const other = await send();
  expect(first.status).toBe(201);
  expect(other.status).toBe(201);
  expect(other.body.id).not.toBe(first.body.id);
});
