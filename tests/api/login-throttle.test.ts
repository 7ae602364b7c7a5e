// Password guessing is slowed without letting anyone lock anyone out: a hard limit per (account,
// address), growing delays per account, and a demo button that needs no password at all. Client
// addresses come from X-Forwarded-For, which the server believes only from a trusted proxy.
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { SessionBody, User } from '../../contract/users.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

const server = useTestServer({
  seed: { pins: 12 },
  env: { TRUST_PROXY: 'loopback', LOGIN_FAILURES_PER_ADDRESS: '3', LOGIN_FAILURES_PER_ACCOUNT: '5', LOGIN_DELAY_MAX_SECONDS: '1' },
});

function loginFrom(address: string, email: string, password: string, client = new ApiClient(server.url)) {
  return client.request<User & ErrorBody>('POST', '/api/auth/login', { json: { email, password }, headers: { 'x-forwarded-for': address } });
}

describe('per (account, address): a hard limit', () => {
  test('an address that failed an account too often is refused with 429, even with the right password; the owner elsewhere signs in', async () => {
    const { user, password } = await signUpUser(server.url, 'pair');
    for (let i = 0; i < 3; i++) expect((await loginFrom('203.0.113.7', user.email, 'wrong password')).status).toBe(401);
    const blocked = await loginFrom('203.0.113.7', user.email, password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.body).toEqual({
      message: 'Too many failed sign-in attempts. Please wait and try again.',
      errors: ['Too many failed sign-in attempts. Please wait and try again.'],
      fields: {},
    });
    const owner = new ApiClient(server.url);
    expect((await loginFrom('198.51.100.20', user.email, password, owner)).status).toBe(200);
    expect((await owner.get<SessionBody>('/api/auth/')).body.user?.id).toBe(user.id);
    // The blocked address can still sign in to another account.
    const other = await signUpUser(server.url, 'pairother');
    expect((await loginFrom('203.0.113.7', other.user.email, other.password)).status).toBe(200);
  });

  test('a success clears that address: its next typo is not the last straw', async () => {
    const { user, password } = await signUpUser(server.url, 'reset');
    for (let i = 0; i < 2; i++) expect((await loginFrom('203.0.113.8', user.email, 'wrong password')).status).toBe(401);
    expect((await loginFrom('203.0.113.8', user.email, password)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await loginFrom('203.0.113.8', user.email, 'wrong password')).status).toBe(401);
    expect((await loginFrom('203.0.113.8', user.email, password)).status).toBe(200);
  });
});

describe('per account, from anywhere: slowed, never locked', () => {
  test('failures from many addresses never refuse the account: the right password from a new address still gets in', async () => {
    const { user, password } = await signUpUser(server.url, 'rotating');
    const statuses: number[] = [];
    const started = performance.now();
    for (let i = 1; i <= 12; i++) statuses.push((await loginFrom(`192.0.2.${i}`, user.email, 'wrong password')).status);
    const spent = performance.now() - started;
    expect(statuses).toEqual(Array(12).fill(401));
    const start = performance.now();
    const owner = await loginFrom('198.51.100.99', user.email, password);
    expect(owner.status).toBe(200);
    expect(owner.body.id).toBe(user.id);
    console.log(`12 failed attempts from 12 addresses took ${spent.toFixed(0)} ms; the owner's sign-in afterwards ${(performance.now() - start).toFixed(0)} ms (slowed, not refused)`);
  });
});

describe('the demo button', () => {
  test('signs in as the demo account without a password, even while its password login is hammered', async () => {
    for (let i = 0; i < 6; i++) await loginFrom('203.0.113.66', 'demo@pinboard.test', 'guess number ' + i);
    expect((await loginFrom('203.0.113.66', 'demo@pinboard.test', 'demo-password')).status).toBe(429);
    const visitor = new ApiClient(server.url);
    const demo = await visitor.request<User>('POST', '/api/auth/demo', { headers: { 'x-forwarded-for': '203.0.113.66' } });
    expect(demo.status).toBe(200);
    expect(demo.body).toMatchObject({ username: 'demo', email: 'demo@pinboard.test' });
    expect((await visitor.get<SessionBody>('/api/auth/')).body.user?.username).toBe('demo');
  });

  test('needs the anti-forgery header like every POST', async () => {
    const visitor = new ApiClient(server.url);
    await visitor.get('/api/auth/');
    const res = await visitor.request<ErrorBody>('POST', '/api/auth/demo', { csrf: false });
    expect(res.status).toBe(403);
    expect((await visitor.get<SessionBody>('/api/auth/')).body.user).toBeNull();
  });

  test('answers 404 with the error shape where the server does not offer it', async () => {
    await withTestServer({ seed: { pins: 12 }, env: { DEMO_LOGIN: 'false' } }, async (off) => {
      const res = await new ApiClient(off.url).post<ErrorBody>('/api/auth/demo');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Demo login is not available.', errors: ['Demo login is not available.'], fields: {} });
    });
  });
});

test('X-Forwarded-For from an untrusted peer is ignored: rotating it does not dodge the per-address limit', async () => {
  await withTestServer({ env: { LOGIN_FAILURES_PER_ADDRESS: '3' } }, async (direct) => {
    const { user, password } = await signUpUser(direct.url, 'untrusted');
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const res = await new ApiClient(direct.url).request('POST', '/api/auth/login', {
        json: { email: user.email, password: i === 4 ? password : 'wrong password' },
        headers: { 'x-forwarded-for': `192.0.2.${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

// Attempts sent at once must be counted before any password is checked: a limit read before the
// check and written after it lets a burst through whole. Both counters are shared through Redis
// when there is one, and held in process otherwise: both are run here.
describe.each([
  { mode: 'in process', redis: false },
  { mode: 'Redis', redis: true },
])('simultaneous attempts ($mode)', ({ redis }) => {
  const burst = useTestServer({
    redis,
    env: { TRUST_PROXY: 'loopback', LOGIN_FAILURES_PER_ADDRESS: '3', LOGIN_FAILURES_PER_ACCOUNT: '4', LOGIN_DELAY_MAX_SECONDS: '1', LOGIN_QUEUE_MAX_SECONDS: '2' },
  });

  function attempt(address: string, email: string, password: string) {
    return new ApiClient(burst.url).request<ErrorBody>('POST', '/api/auth/login', { json: { email, password }, headers: { 'x-forwarded-for': address } });
  }

  test('30 wrong passwords at once from one address: only the limit (3) are checked, the rest get 429 with Retry-After', async () => {
    const { user } = await signUpUser(burst.url, 'burstpair');
    const answers = await Promise.all(Array.from({ length: 30 }, () => attempt('203.0.113.40', user.email, 'wrong password')));
    const statuses = answers.map((answer) => answer.status);
    console.log(`30 simultaneous attempts from one address: ${statuses.filter((s) => s === 401).length} checked (401), ${statuses.filter((s) => s === 429).length} refused (429)`);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(27);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.body.message).toBe('Too many failed sign-in attempts. Please wait and try again.');
    }
  });

  test('a delayed account checks one attempt per delay, whatever the number of addresses: 20 at once from 20 addresses queue or get 429', async () => {
    const { user, password } = await signUpUser(burst.url, 'burstaccount');
    // Past the account's threshold (4 failures) the delay doubles from 0.25 s up to its 1 s maximum.
    for (let i = 1; i <= 7; i++) expect((await attempt(`192.0.2.${i}`, user.email, 'wrong password')).status).toBe(401);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(`198.51.100.${i + 1}`, user.email, 'wrong password')));
    const elapsedSeconds = (performance.now() - started) / 1000;
    const checked = answers.filter((answer) => answer.status === 401).length;
    const refused = answers.filter((answer) => answer.status === 429);
    console.log(`20 simultaneous attempts from 20 addresses on a delayed account: ${checked} checked in ${elapsedSeconds.toFixed(2)} s, ${refused.length} refused`);
    expect(checked + refused.length).toBe(20);
    // One slot per second of delay: attempts that ran side by side would check more than the time allows.
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(Math.floor(elapsedSeconds) + 1);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner is slowed, not locked out: once the queue has drained, the right password gets in.
    await expect.poll(async () => (await attempt('198.51.100.200', user.email, password)).status, { timeout: 30_000, interval: 500 }).toBe(200);
  });
});
