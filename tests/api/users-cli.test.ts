import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { SessionBody, User } from '../../contract/users.ts';
import { ApiClient } from '../support/client.ts';
import { REDIS_URL } from '../support/database.ts';
import { connectSocket } from '../support/sockets.ts';
import { useTestServer } from '../support/use-test-server.ts';

// `npm run users -- …` (backend/cli/users.ts, docs/site-access.md), run as the operator runs it: a
// child process on the same database as a running server (services mode: Postgres and Redis), and
// on an embedded PGlite folder while no server holds it.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

async function users(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['backend/cli/users.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env } });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

describe('services mode, while the server runs', () => {
  const server = useTestServer({ db: 'postgres', redis: true, env: { SIGNUPS: 'invite', PUBLIC_ORIGIN: 'https://pins.example' } });
  const env = () => ({ DATABASE_URL: server.databaseUrl as string, REDIS_URL, SOCKET_CHANNEL: server.config.socketChannel, SIGNUPS: 'invite', PUBLIC_ORIGIN: 'https://pins.example' });

  test('invite prints a working link; list shows the account', async () => {
    const made = await users(env(), 'invite', '--uses', '2', '--days', '3');
    expect(made.code).toBe(0);
    const link = /https:\/\/pins\.example\/signup\?invite=([A-Za-z0-9_-]{22})/.exec(made.out);
    expect(made.out).toMatch(/^Invite [A-Za-z0-9_-]{22}: 2 sign-ups, expires 20\d\d-/);
    expect(link).not.toBeNull();
    const tag = `cli${Date.now() % 1e7}`;
    const res = await new ApiClient(server.url).post<User>('/api/auth/signup', { email: `${tag}@example.test`, username: tag, password: 'long enough password', invite: link?.[1] });
    expect(res.status).toBe(201);
    const listed = await users(env(), 'list');
    expect(listed.out).toMatch(/^id\s+username\s+email\s+created\s+disabled$/m);
    expect(listed.out).toMatch(new RegExp(`^${res.body.id}\\s+${tag}\\s+${tag}@example.test\\s+20\\d\\d-\\S+\\s+-$`, 'm'));
  });

  test('disable ends the sessions, sockets and tokens at once; enable lets the account in again', async () => {
    const { client, user, password } = await signUpUserOn(server.url);
    const token = (await client.post<{ secret: string }>('/api/tokens', { name: 'script', scope: 'read' })).body.secret;
    const bearer = () => new ApiClient(server.url).request('GET', '/api/pins/', { headers: { authorization: `Bearer ${token}` } });
    expect((await bearer()).status).toBe(200); // now in this instance's token cache
    expect((await client.get<SessionBody>('/api/auth/')).body.user?.id).toBe(user.id); // and its session cache
    const socket = await connectSocket(server.url, client);

    const disabled = await users(env(), 'disable', user.email.toUpperCase());
    expect(disabled.err).toBe('');
    expect(disabled.code).toBe(0);
    expect(disabled.out).toContain(`Disabled user ${user.id} (${user.username}, ${user.email})`);
    expect(disabled.out).toContain('Ended 1 session and their sockets on every instance; 1 token forgotten by every instance.');
    // At once: no cache's 5 s to wait out.
    expect((await client.get<SessionBody>('/api/auth/')).body.user).toBeNull();
    expect((await bearer()).status).toBe(401);
    await expect.poll(() => socket.connected, { timeout: 2_000 }).toBe(false);
    expect(socket.received.some((r) => r.event === 'session:ended')).toBe(true);
    expect((await users(env(), 'list')).out).toMatch(new RegExp(`^${user.id}\\s.*\\s20\\d\\d-\\S+Z$`, 'm'));

    const refused = await new ApiClient(server.url).post<ErrorBody>('/api/auth/login', { email: user.email, password });
    expect(refused.status).toBe(403);
    const enabled = await users(env(), 'enable', user.email);
    expect(enabled.out).toContain(`Enabled user ${user.id}`);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: user.email, password })).status).toBe(200);
  });

  test('reset-link prints a link that sets a new password', async () => {
    const { user } = await signUpUserOn(server.url);
    const printed = await users(env(), 'reset-link', user.email);
    expect(printed.code).toBe(0);
    const token = /https:\/\/pins\.example\/reset-password\?token=(\S+)/.exec(printed.out)?.[1];
    expect(token).toBeDefined();
    const confirm = await new ApiClient(server.url).post('/api/auth/password-reset/confirm', { token, password: 'a brand new password' });
    expect(confirm.status).toBeLessThan(300);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: user.email, password: 'a brand new password' })).status).toBe(200);
  });

  test('unknown accounts, commands and options: a message and exit code 1', async () => {
    const unknown = await users(env(), 'disable', 'nobody@example.test');
    expect(unknown).toMatchObject({ code: 1, err: 'No account has the email nobody@example.test.\n' });
    const usage = await users(env(), 'frobnicate');
    expect(usage.code).toBe(1);
    expect(usage.err).toMatch(/^usage: npm run users -- list \| invite/);
    expect((await users(env(), 'invite', '--uses', '0')).err).toBe('--uses must be a whole number from 1 to 100.\n');
    expect((await users(env(), 'invite', '--bogus')).code).toBe(1);
  });

  /** A member of an invite-only site: signed up with an invite the command made. */
  async function signUpUserOn(url: string): Promise<{ client: ApiClient; user: User; password: string }> {
    const code = /invite=([A-Za-z0-9_-]{22})/.exec((await users(env(), 'invite')).out)?.[1];
    const tag = `cli${process.pid}x${Math.floor(Math.random() * 1e7)}`;
    const client = new ApiClient(url);
    const password = 'long enough password';
    const res = await client.post<User>('/api/auth/signup', { email: `${tag}@example.test`, username: tag, password, invite: code });
    expect(res.status).toBe(201);
    return { client, user: res.body, password };
  }
});

describe('embedded mode, with the server stopped', () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('works on the PGlite folder: invite, list, an unknown account', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pinboard-users-cli-'));
    const env = { PGLITE_DIR: path.join(dir, 'pglite') };
    const migrate = await run(process.execPath, ['backend/cli/db.ts', 'migrate'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    expect(migrate.stdout).toContain('Applied:');
    const made = await users(env, 'invite');
    expect(made.out).toMatch(/^Invite \S+: 1 sign-up, expires .*\n\/signup\?invite=\S+\nNote: SIGNUPS is open: anyone may sign up without it\.\n$/);
    expect((await users(env, 'list')).out).toContain('0 users.');
    expect((await users(env, 'disable', 'nobody@example.test')).code).toBe(1);
  }, 60_000);
});
