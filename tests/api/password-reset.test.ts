import { describe, expect, test } from 'vitest';
import { createResetLink } from '../../backend/account/password-reset.service.ts';
import { ConfigError, loadConfig } from '../../backend/config.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { SessionBody } from '../../contract/users.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { type ReceivedMail, resetLinkIn, useSmtpInbox } from '../support/smtp-inbox.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Forgotten passwords (docs/accounts.md), mailed through a real SMTP server listening on a
// loopback port (tests/support/smtp-inbox.ts).

const inbox = useSmtpInbox();
const server = useTestServer(() => ({ env: { SMTP_URL: inbox.url, MAIL_FROM: 'Pinboard <reset@pinboard.test>', PASSWORD_RESETS_PER_EMAIL: '3' } }));

const mailTo = (address: string) => inbox.mailTo(address);
const tokenIn = (mail: ReceivedMail) => new URL(resetLinkIn(mail)).searchParams.get('token') ?? '';

describe('asking for a reset link', () => {
  test('answers the same for an email with an account and one without; only the account gets a mail', async () => {
    const { user } = await signUpUser(server.url, 'resetknown');
    const unknown = `nobody${Date.now()}@example.test`;
    const known = await new ApiClient(server.url).post('/api/auth/password-reset', { email: user.email.toUpperCase() });
    const none = await new ApiClient(server.url).post('/api/auth/password-reset', { email: unknown });
    expect(known.status).toBe(202);
    expect(none.status).toBe(202);
    expect(none.body).toEqual(known.body);
    const mail = await mailTo(user.email);
    expect(mail.data).toMatch(/From: Pinboard <reset@pinboard\.test>/);
    expect(mail.data).toMatch(/Subject: Reset your Pinboard password/);
    expect(mail.data).toContain(`${server.url}/reset-password?token=`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(inbox.has(unknown)).toBe(false);
  });

  test('as fast for an unknown email as for a known one: the answer goes before the account is looked up', async () => {
    const { user } = await signUpUser(server.url, 'resettiming');
    const time = async (email: string) => {
      const started = performance.now();
      expect((await new ApiClient(server.url).post('/api/auth/password-reset', { email })).status).toBe(202);
      return performance.now() - started;
    };
    const known = await time(user.email);
    const unknown = await time(`nobody${Date.now()}@example.test`);
    console.log(`reset request answered in ${known.toFixed(1)} ms (account) and ${unknown.toFixed(1)} ms (none)`);
    await mailTo(user.email);
  });

  test('bad input is 400; past the per-email limit it is 429, for any email', async () => {
    expect((await new ApiClient(server.url).post<ErrorBody>('/api/auth/password-reset', { email: 'not an email' })).status).toBe(400);
    expect((await new ApiClient(server.url).post<ErrorBody>('/api/auth/password-reset', {})).status).toBe(400);
    const email = `limited${Date.now()}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await new ApiClient(server.url).post('/api/auth/password-reset', { email })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});

describe('using a reset link', () => {
  test('works once: sets the password and ends every session of the account', async () => {
    const { client, user, password } = await signUpUser(server.url, 'resetuse');
    const socket = await server.socket(client);
    expect((await new ApiClient(server.url).post('/api/auth/password-reset', { email: user.email })).status).toBe(202);
    const token = tokenIn(await mailTo(user.email));

    const short = await new ApiClient(server.url).post<ErrorBody>('/api/auth/password-reset/confirm', { token, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.fields.password).toBe('Password must be at least 8 characters.');

    const used = await new ApiClient(server.url).post('/api/auth/password-reset/confirm', { token, password: 'chosen after forgetting' });
    expect(used.status).toBe(204);
    expect((await client.get<SessionBody>('/api/auth/')).body.user).toBeNull();
    await new Promise<void>((resolve) => (socket.connected ? socket.once('disconnect', () => resolve()) : resolve()));
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: user.email, password })).status).toBe(401);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: user.email, password: 'chosen after forgetting' })).status).toBe(200);

    const again = await new ApiClient(server.url).post<ErrorBody>('/api/auth/password-reset/confirm', { token, password: 'and once more please' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This reset link has expired or was already used. Ask for a new one.');
  });

  test('an expired link, an unknown one and a malformed one are refused with the same message', async () => {
    const { user } = await signUpUser(server.url, 'resetold');
    const link = await createResetLink({ db: server.server.database.db }, user.email);
    const token = new URL(link ?? '', 'http://x').searchParams.get('token') ?? '';
    await server.server.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    for (const attempt of [token, 'A'.repeat(43), 'not a token']) {
      const res = await new ApiClient(server.url).post<ErrorBody>('/api/auth/password-reset/confirm', { token: attempt, password: 'a long new password' });
      expect(res.status, attempt).toBe(400);
      expect(res.body.message).toBe('This reset link has expired or was already used. Ask for a new one.');
    }
  });

  test("the operator's link: for an account only, a path unless given the site's address", async () => {
    const { user } = await signUpUser(server.url, 'resetcli');
    const db = server.server.database.db;
    expect(await createResetLink({ db }, `nobody${Date.now()}@example.test`)).toBeUndefined();
    expect(await createResetLink({ db }, user.email)).toMatch(/^\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const link = await createResetLink({ db }, user.email, 'https://pins.example');
    expect(link).toMatch(/^https:\/\/pins\.example\/reset-password\?token=/);
    // Only the token's digest is stored.
    const stored = await db.selectFrom('password_resets').select('token_hash').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain(new URL(link ?? '').searchParams.get('token'));
  });
});

test('with SMTP_URL in production, PUBLIC_ORIGIN is required (reset links must not take the Host header)', () => {
  const production = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40), DEMO_PASSWORD: 'a real secret demo password', SMTP_URL: 'smtp://mail.example:587' };
  expect(() => loadConfig(production)).toThrow(ConfigError);
  expect(() => loadConfig(production)).toThrow(/PUBLIC_ORIGIN/);
  expect(loadConfig({ ...production, PUBLIC_ORIGIN: 'https://pins.example' }).mail).toEqual({ smtpUrl: 'smtp://mail.example:587', from: 'Pinboard <no-reply@pinboard.invalid>' });
  expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
});
