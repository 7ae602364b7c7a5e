import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import { afterPage, type ChangeEntry, type ChangesAnswer } from '../../contract/changes.ts';
import type { Comment } from '../../contract/comments.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Favorite } from '../../contract/favorites.ts';
import { MSG } from '../../contract/messages.ts';
import type { Pin } from '../../contract/pins.ts';
import { pruneChanges, readHead } from '../../backend/changes/changes.service.ts';
import { write } from '../../backend/changes/write.ts';
import { beforeCommit } from '../../backend/transactions/transaction.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { newPin } from '../support/factories.ts';
import { testDatabaseKind } from '../support/server.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { transactionBase } from '../../backend/changes/position.ts';

let anonymous: ApiClient;
const server = useTestServer();
beforeAll(async () => {
  anonymous = new ApiClient(server.url);
});

const db = () => server.server.database.db;

async function changesSince(client: ApiClient, since: number): Promise<ChangesAnswer> {
  const res = await client.get<ChangesAnswer>(`/api/changes?since=${since}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Pages through the log from `since` as a client does (contract/changes.ts afterPage). */
async function pullAll(client: ApiClient, since: number): Promise<{ changes: ChangeEntry[]; lastSeq: number }> {
  const changes: ChangeEntry[] = [];
  let cursor = since;
  for (;;) {
    const answer = await changesSince(client, cursor);
    if ('reset' in answer) throw new Error(`unexpected reset from ${cursor}`);
    changes.push(...answer.changes);
    const next = afterPage(answer);
    cursor = next.cursor;
    if (!next.more) return { changes, lastSeq: cursor };
  }
}

const head = () => readHead(db());

/**
 * A favorite that found its pin's row busy (a counters fold, another favorite) has its pin:likes
 * change recorded by the settle job after its commit (backend/favorites/likes.ts): the writes are
 * all in the log once those jobs are done.
 */
const likesSettled = () =>
  eventually(
    async () => (await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'pins.likes-settle' and state < 'completed'`.execute(db())).rows[0]?.n,
    (n) => n === 0,
  );

describe('GET /api/changes', () => {
  test('answers the changes after `since` oldest first, as their socket events carried them (without seq)', async () => {
    const start = await head();
    const { client } = await signUpUser(server.url);
    const pin = await newPin(client, 'Logged');
    const comment = (await client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'Nice' })).body;
    await client.put(`/api/pins/${pin.id}`, { title: 'Logged again', description: '' });
    const { changes, lastSeq } = await pullAll(anonymous, start);
    expect(changes.map((c) => c.event)).toEqual(['pin:created', 'comment:created', 'pin:updated']);
    // The edit after it rewrote the creation's text: the log keeps no text an edit replaced (docs/change-log.md).
    expect(changes[0]).toEqual({ seq: expect.any(Number), event: 'pin:created', data: { pin: { ...pin, title: 'Logged again' } } });
    expect(changes[1]).toEqual({ seq: expect.any(Number), event: 'comment:created', data: { comment } });
    // Positions increase, but need not be dense (docs/change-log.md).
    const seqs = changes.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(3);
    expect(seqs[0]).toBeGreaterThan(start);
    expect(changes[2]?.data).toMatchObject({ pin: { id: pin.id, title: 'Logged again' } });
    expect(lastSeq).toBe(await head());
    // Nothing new: an empty answer that still says where the log is.
    expect(await changesSince(anonymous, lastSeq)).toEqual({ changes: [], lastSeq });
  });

  test("another user's favorites never appear to anonymous readers or other users; their own do", async () => {
    const start = await head();
    const owner = await signUpUser(server.url);
    const fan = await signUpUser(server.url);
    const other = await signUpUser(server.url);
    const pin = await newPin(owner.client);
    const favorite = (await fan.client.post<Favorite>('/api/favorites/', { pin_id: pin.id })).body;
    await fan.client.delete(`/api/favorites/${favorite.id}`);
    await likesSettled();

    const events = async (client: ApiClient) => (await pullAll(client, start)).changes.map((c) => c.event);
    const publicOnly = ['pin:created', 'pin:likes', 'pin:likes'];
    expect(await events(anonymous)).toEqual(publicOnly);
    expect(await events(other.client)).toEqual(publicOnly);
    expect(await events(owner.client)).toEqual(publicOnly);
    const own = (await pullAll(fan.client, start)).changes;
    expect(own.map((c) => c.event)).toEqual(['pin:created', 'favorite:added', 'pin:likes', 'favorite:removed', 'pin:likes']);
    expect(own[1]?.data).toEqual({ favorite });
    expect(own[2]?.data).toEqual({ pinId: pin.id, likesCount: 1, version: expect.any(Number) });
    // The anonymous reader's lastSeq still goes past the private rows.
    expect((await pullAll(anonymous, start)).lastSeq).toBe(await head());
  });

  test('a bad `since` is 400 with the one error shape', async () => {
    for (const query of ['', '?since=', '?since=abc', '?since=-1', '?since=1.5', '?since=1e3', '?since=9007199254740992', '?since=99999999999999999']) {
      const res = await anonymous.get<ErrorBody>(`/api/changes${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toBe(MSG.sinceInvalid);
    }
  });

  test('at most 1,000 changes per answer: a full answer is complete to its last change, the next goes on from there; exactly 1,000 missed take one request', async () => {
    const start = await head();
    // 1,500 public changes of one transaction written straight into the log (requests would take a while).
    const seqs = await db()
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ seq: string }>`
        insert into changes (seq, event, data, public)
        select ${transactionBase} + n, 'pin:deleted', jsonb_build_object('pinId', n), true from generate_series(1, 1500) n
        returning seq`.execute(trx);
        return rows.map((r) => Number(r.seq)).sort((x, y) => x - y);
      });
    const at = (n: number) => seqs[n - 1] as number;
    const first = await changesSince(anonymous, start);
    if ('reset' in first) throw new Error('reset');
    expect(first.changes).toHaveLength(1_000);
    expect(first.lastSeq).toBe(at(1_500));
    expect(afterPage(first)).toEqual({ cursor: at(1_000), more: true });
    const second = await changesSince(anonymous, at(1_000));
    if ('reset' in second) throw new Error('reset');
    expect(second.changes).toHaveLength(500);
    expect(second.changes[0]?.seq).toBe(at(1_001));
    expect(second.lastSeq).toBe(at(1_500));
    expect(afterPage(second)).toEqual({ cursor: at(1_500), more: false });
    // 1,000 behind the head exactly: the full answer ends at the head, so nothing more to ask.
    const exact = await changesSince(anonymous, at(500));
    if ('reset' in exact) throw new Error('reset');
    expect(exact.changes).toHaveLength(1_000);
    expect(afterPage(exact)).toEqual({ cursor: at(1_500), more: false });
  });

  // PGlite has one connection: a transaction held open there holds every request.
  if (testDatabaseKind() === 'postgres')
    test('no writer waits for another: a transaction still open holds back what readers are served, not the writes after it', async () => {
      const { client } = await signUpUser(server.url);
      const start = await head();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let logged = () => {};
      const rowWritten = new Promise<void>((resolve) => {
        logged = resolve;
      });
      // A slow writer: its change is in the log (its position taken) but it has not committed.
      const slow = write({ db: db(), events: server.server.events }, async (trx, record) => {
        record('pin:deleted', { pinId: 2_000_000_000 }, 'feed');
        beforeCommit(trx, async () => {
          logged();
          await held;
        });
      });
      await rowWritten;
      // Later writers do not wait for it (with a counter row locked to the commit, this would hang).
      const pin = await newPin(client, 'Written while another transaction is open');
      const whileOpen = await changesSince(anonymous, start);
      if ('reset' in whileOpen) throw new Error('reset');
      // Its change, at a higher position than the open one's, is not served yet: a reader that went on
      // from it would never see the slower transaction's change.
      expect(whileOpen.changes.map((c) => c.event)).not.toContain('pin:created');
      release();
      await slow;
      const after = await pullAll(anonymous, start);
      expect(after.changes.map((c) => c.event)).toEqual(['pin:deleted', 'pin:created']);
      expect(after.changes[1]?.data).toEqual({ pin });
    });

  test('concurrent writers: a poller that loops from its cursor reads every change once, none missed (positions are served below the oldest open transaction)', async () => {
    // PGlite has one connection: requests queue for it, and 20 writers plus a poller on a loaded
    // machine could wait past the pool's timeout (503). Postgres gets the full crowd.
    const writerCount = testDatabaseKind() === 'pglite' ? 5 : 20;
    const writers = await Promise.all(Array.from({ length: writerCount }, () => signUpUser(server.url)));
    const pins = await Promise.all(writers.slice(0, 4).map((w) => newPin(w.client)));
    const start = await head();
    const seen: number[] = [];
    let writing = true;
    const poll = (async () => {
      let cursor = start;
      let rounds = 0;
      // Until the writers are done and one more pull found the rest.
      for (let last = false; ;) {
        if (!writing) last = true;
        const answer = await changesSince(anonymous, cursor);
        if ('reset' in answer) throw new Error('reset');
        seen.push(...answer.changes.map((c) => c.seq));
        const next = afterPage(answer);
        cursor = next.cursor;
        rounds += 1;
        if (last && !next.more) return rounds;
      }
    })();
    await Promise.all(
      writers.map(async ({ client }, i) => {
        for (let round = 0; round < 3; round++) {
          const pin = pins[(i + round) % pins.length] as Pin;
          const fav = await client.post<Favorite>('/api/favorites/', { pin_id: pin.id });
          await client.post(`/api/comments/pins/${pin.id}/comments`, { text: `from ${i}` });
          await client.delete(`/api/favorites/${fav.body.id}`);
        }
      }),
    );
    await likesSettled();
    writing = false;
    const rounds = await poll;
    const expected = await db().selectFrom('changes').select('seq').where('seq', '>', String(start)).where('public', '=', true).orderBy('seq').execute();
    console.log(`concurrent writers: ${expected.length} public changes read in ${rounds} polls`);
    expect(seen).toEqual(expected.map((r) => Number(r.seq)));
    // Writers × 3 rounds: 2 likes changes each, plus the comments that were new (one per user and pin).
    expect(seen.length).toBeGreaterThanOrEqual(writerCount * 3 * 2);
  });

  // Last: it prunes the log.
  test('from before what pruning kept, or from ahead of the log: {reset: true, lastSeq}', async () => {
    const { client } = await signUpUser(server.url);
    await newPin(client, 'Old');
    const oldHead = await head();
    await sql`update changes set created_at = now() - interval '25 hours' where seq <= ${oldHead}`.execute(db());
    await newPin(client, 'New');
    expect(await pruneChanges(db(), 24)).toBeGreaterThan(0);
    const now = await head();
    // The pins' pictures are fetched by jobs that may log a change meanwhile: heads only move on.
    const resetFrom = async (since: number) => {
      const answer = await changesSince(anonymous, since);
      if (!('reset' in answer)) throw new Error(`no reset from ${since}`);
      expect(answer.lastSeq).toBeGreaterThanOrEqual(now);
    };
    await resetFrom(oldHead - 1);
    await resetFrom(0);
    const kept = await changesSince(anonymous, oldHead);
    if ('reset' in kept) throw new Error('reset from what pruning kept');
    const created = kept.changes.filter((c) => c.event === 'pin:created').map((c) => (c.data as { pin: Pin }).pin.title);
    expect(created).toEqual(['New']);
    expect(kept.lastSeq).toBeGreaterThanOrEqual(now);
    // Past the head is not ahead of the log (the head steps back when a deletion rewrites the newest
    // rows), and the answer does not send the reader's cursor back to the head…
    const pastHead = await changesSince(anonymous, kept.lastSeq + 1);
    if ('reset' in pastHead) throw new Error('reset from past the head');
    expect(pastHead.lastSeq).toBeGreaterThanOrEqual(kept.lastSeq + 1);
    // …but a position no transaction has had yet is from another log.
    await resetFrom(Number.MAX_SAFE_INTEGER);
    expect(Number((await db().selectFrom('change_counter').select('pruned_through').executeTakeFirstOrThrow()).pruned_through)).toBe(oldHead);
  });
});
