import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { InviteCreated, InviteList } from '../../contract/invites.ts';
import type { SessionBody, User } from '../../contract/users.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Who may join (SIGNUPS, docs/site-access.md): invite links on an invite-only site, and a closed one.

let n = 0;
const account = (invite?: string) => {
  n += 1;
  const tag = `inv${process.pid}x${n}x${Math.floor(Math.random() * 1e5)}`;
  return { email: `${tag}@example.test`, username: tag, password: 'long enough password', ...(invite === undefined ? {} : { invite }) };
};

describe('SIGNUPS=invite', () => {
  const server = useTestServer({ env: { SIGNUPS: 'invite' } });
  const db = () => server.server.database.db;
  /** The first member: made in the database, as the operator's command or a seed would. */
  async function member(): Promise<ApiClient> {
    const { invite } = await inviteFromOperator();
    const client = new ApiClient(server.url);
    const res = await client.post<User>('/api/auth/signup', account(invite));
    expect(res.status).toBe(201);
    return client;
  }
  async function inviteFromOperator(): Promise<{ invite: string }> {
    const code = `op${Math.random().toString(36).slice(2)}xxxxxxxxxxxxxxxxxxxx`.slice(0, 22);
    await db()
      .insertInto('invites')
      .values({ code, created_by: null, uses: 1, expires_at: new Date(Date.now() + 3600_000) })
      .execute();
    return { invite: code };
  }

  test('the session check says so; sign-up without a code, or with a bad one, is 403', async () => {
    const visitor = new ApiClient(server.url);
    expect((await visitor.get<SessionBody>('/api/auth/')).body.site).toEqual({ visibility: 'public', signups: 'invite' });
    const without = await visitor.post<ErrorBody>('/api/auth/signup', account());
    expect(without.status).toBe(403);
    expect(without.body.fields.invite).toBe('Sign-ups on this site need an invite link. Ask a member for one.');
    const bad = await visitor.post<ErrorBody>('/api/auth/signup', account('not-a-real-code'));
    expect(bad.status).toBe(403);
  });

  test('a member makes, lists and revokes invites; 1 use by default; each works once per use', async () => {
    const client = await member();
    const made = await client.post<InviteCreated>('/api/invites', { uses: 2, expiresInDays: 3 });
    expect(made.status).toBe(201);
    const { invite } = made.body;
    expect(invite).toMatchObject({ uses: 2, used: 0, remaining: 2, url: `/signup?invite=${invite.code}` });
    expect(Date.parse(invite.expiresAt) - Date.now()).toBeGreaterThan(2.9 * 24 * 3600_000);
    const single = (await client.post<InviteCreated>('/api/invites', {})).body.invite;
    expect(single.uses).toBe(1);

    expect((await new ApiClient(server.url).post('/api/auth/signup', account(invite.code))).status).toBe(201);
    expect((await new ApiClient(server.url).post('/api/auth/signup', account(invite.code))).status).toBe(201);
    const usedUp = await new ApiClient(server.url).post<ErrorBody>('/api/auth/signup', account(invite.code));
    expect(usedUp.status).toBe(403);
    expect(usedUp.body.message).toBe('This invite link cannot be used: it was used up, has expired or was revoked.');

    const list = (await client.get<InviteList>('/api/invites')).body.invites;
    expect(list.map((i) => [i.id, i.remaining])).toEqual([
      [single.id, 1],
      [invite.id, 0],
    ]);
    // Another member can neither see nor revoke it.
    const stranger = await member();
    expect((await stranger.get<InviteList>('/api/invites')).body.invites).toEqual([]);
    expect((await stranger.delete(`/api/invites/${single.id}`)).status).toBe(404);
    expect((await client.delete(`/api/invites/${single.id}`)).status).toBe(200);
    expect((await new ApiClient(server.url).post('/api/auth/signup', account(single.code))).status).toBe(403);
  });

  test('a taken email gives the use back', async () => {
    const client = await member();
    const { invite } = (await client.post<InviteCreated>('/api/invites', {})).body;
    const { user } = await signUpUserWith(invite.code);
    const again = (await client.post<InviteCreated>('/api/invites', {})).body.invite;
    const taken = await new ApiClient(server.url).post('/api/auth/signup', { ...account(again.code), email: user.email });
    expect(taken.status).toBe(409);
    expect((await new ApiClient(server.url).post('/api/auth/signup', account(again.code))).status).toBe(201);
  });

  async function signUpUserWith(code: string): Promise<{ user: User }> {
    const res = await new ApiClient(server.url).post<User>('/api/auth/signup', account(code));
    expect(res.status).toBe(201);
    return { user: res.body };
  }

  test('two sign-ups with a one-use code at once: exactly one account is made', async () => {
    const client = await member();
    for (let round = 0; round < 3; round++) {
      const { invite } = (await client.post<InviteCreated>('/api/invites', { uses: 1 })).body;
      const results = await Promise.all([0, 1].map(() => new ApiClient(server.url).post('/api/auth/signup', account(invite.code))));
      expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
    }
  });

  test('an expired invite is refused', async () => {
    const client = await member();
    const { invite } = (await client.post<InviteCreated>('/api/invites', {})).body;
    await db()
      .updateTable('invites')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', invite.id)
      .execute();
    expect((await new ApiClient(server.url).post('/api/auth/signup', account(invite.code))).status).toBe(403);
  });

  test('bad input is 400, a member holds at most 50, visitors get 401', async () => {
    const client = await member();
    expect((await client.post('/api/invites', { uses: 0 })).status).toBe(400);
    expect((await client.post('/api/invites', { uses: 101 })).status).toBe(400);
    expect((await client.post('/api/invites', { expiresInDays: 366 })).status).toBe(400);
    expect((await client.post('/api/invites', { uses: 'two' })).status).toBe(400);
    for (let i = 0; i < 50; i++) expect((await client.post('/api/invites', {})).status).toBe(201);
    const full = await client.post<ErrorBody>('/api/invites', {});
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('You can have at most 50 invite links. Revoke one first.');
    expect((await new ApiClient(server.url).get('/api/invites')).status).toBe(401);
  });
});

describe('SIGNUPS=closed', () => {
  const server = useTestServer({ seed: { pins: 1 }, env: { SIGNUPS: 'closed', DEMO_LOGIN: 'true' } });

  test('sign-up is 403 with the exact text; invites cannot be made; the demo button still works', async () => {
    const visitor = new ApiClient(server.url);
    expect((await visitor.get<SessionBody>('/api/auth/')).body.site.signups).toBe('closed');
    const res = await visitor.post<ErrorBody>('/api/auth/signup', account());
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Sign-ups are closed on this site.');
    const demo = new ApiClient(server.url);
    expect((await demo.post('/api/auth/demo')).status).toBe(200);
    const made = await demo.post<ErrorBody>('/api/invites', {});
    expect(made.status).toBe(403);
    expect(made.body.message).toBe('Sign-ups are closed on this site.');
  });
});

describe('SIGNUPS=open (the default)', () => {
  const server = useTestServer();
  test('anyone signs up without a code; a code given is not needed', async () => {
    const { client } = await signUpUser(server.url);
    const { invite } = (await client.post<InviteCreated>('/api/invites', {})).body;
    expect((await new ApiClient(server.url).post('/api/auth/signup', account(invite.code))).status).toBe(201);
    expect((await client.get<InviteList>('/api/invites')).body.invites[0]?.used).toBe(0);
  });
});
