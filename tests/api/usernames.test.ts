import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import { MSG } from '../../contract/messages.ts';
import type { User } from '../../contract/users.ts';
import { usernameSkeleton } from '../../db/username-skeleton.ts';
import { mapDatabaseError } from '../../backend/http/db-errors.ts';
import { openDatabase } from '../../db/connect.ts';
import { migrationProvider } from '../../db/migrations/index.ts';
import type { DB } from '../../db/schema.ts';
import { ApiClient } from '../support/client.ts';
import { createTestDatabase } from '../support/database.ts';
import { testDatabaseKind } from '../support/server.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Look-alike usernames: the seeded "demo", "maya" and "leo" exist; a name that is the same once
// normalised (NFKC, case) is taken, one with the same confusable skeleton is refused as a look-alike,
// invisible and direction-changing characters are refused outright, and nothing is created then.

const server = useTestServer({ seed: { pins: 12 } });

const db = () => server.server.database.db;
let n = 0;
/** Digits only, so that any script can be put in front of it without mixing scripts. */
const digits = () => `${process.pid % 1000}${Date.now() % 1e6}${++n}`;

function signup(username: string, email = `u${digits()}@example.test`) {
  return new ApiClient(server.url).post<User | ErrorBody>('/api/auth/signup', { email, username, password: 'correct horse battery' });
}

async function usersWithEmail(email: string): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select count(*) as n from users where email = ${email}`.execute(db());
  return Number(rows[0]?.n);
}

/** Signs up and expects a refusal with this status and username message, and no account made. */
async function expectRefused(username: string, status: number, message: string): Promise<void> {
  const email = `refused${digits()}@example.test`;
  const res = await signup(username, email);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = res.body as ErrorBody;
  expect(body.fields).toEqual({ username: message });
  expect(body.errors).toContain(message);
  expect(await usersWithEmail(email)).toBe(0);
}

describe('names that are taken once normalised', () => {
  test('"DEMO" → 409 taken (case)', async () => {
    await expectRefused('DEMO', 409, MSG.usernameTaken);
  });

  test('fullwidth "ｄｅｍｏ" is "demo" after NFKC → 409 taken', async () => {
    await expectRefused('ｄｅｍｏ', 409, MSG.usernameTaken);
    await expectRefused(' Ｄｅｍｏ ', 409, MSG.usernameTaken);
  });

  test('a fresh fullwidth name is stored in its NFKC form', async () => {
    const tail = digits();
    const fullwidth = `ｆｕｌｌ${[...tail].map((d) => String.fromCodePoint(0xff10 + Number(d))).join('')}`;
    const res = await signup(fullwidth);
    expect(res.status).toBe(201);
    expect((res.body as User).username).toBe(`full${tail}`);
    const row = await db()
      .selectFrom('users')
      .select(['username', 'username_skeleton'])
      .where('id', '=', (res.body as User).id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ username: `full${tail}`, username_skeleton: usernameSkeleton(`full${tail}`) });
    // …and its plain form is then taken.
    await expectRefused(`full${tail}`, 409, MSG.usernameTaken);
  });
});

describe('look-alikes of a taken name → 409 look-alike', () => {
  test('a whole-Cyrillic name drawn like an existing Latin one', async () => {
    const tail = digits();
    expect((await signup(`copy${tail}`)).status).toBe(201);
    // с о р у are Cyrillic letters; the digits belong to no script.
    await expectRefused(`\u0441\u043e\u0440\u0443${tail}`, 409, MSG.usernameLookAlike);
    await expectRefused(`\u0421\u041e\u0420\u0423${tail}`, 409, MSG.usernameLookAlike);
  });

  test('"dem0", "rnaya", "Ieo" (capital I) look like demo, maya, leo', async () => {
    await expectRefused('dem0', 409, MSG.usernameLookAlike);
    await expectRefused('rnaya', 409, MSG.usernameLookAlike);
    await expectRefused('Ieo', 409, MSG.usernameLookAlike);
  });

  test('the stored skeleton makes "dеmo" (Cyrillic е) meet "demo"', () => {
    expect(usernameSkeleton('d\u0435mo')).toBe(usernameSkeleton('demo'));
    expect(usernameSkeleton('DEMO')).toBe(usernameSkeleton('demo'));
    expect(usernameSkeleton('ｄｅｍｏ')).toBe(usernameSkeleton('demo'));
  });

  test('8 parallel sign-ups of look-alike forms of one new name → one account', async () => {
    const tail = digits();
    const forms = [
      `copy${tail}`,
      `COPY${tail}`,
      `\u0441\u043e\u0440\u0443${tail}`,
      `\u0421\u041e\u0420\u0423${tail}`,
      `ｃｏｐｙ${tail}`,
      `Copy${tail}`,
      `cOpy${tail}`,
      `\u0441\u043e\u0440\u0443${tail}`,
    ];
    const responses = await Promise.all(forms.map((form) => signup(form)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(7).fill(409)]);
    for (const r of responses.filter((x) => x.status === 409)) {
      expect([MSG.usernameTaken, MSG.usernameLookAlike]).toContain((r.body as ErrorBody).fields.username);
    }
    const { rows } = await sql<{ n: string | number }>`select count(*) as n from users where username_skeleton = ${usernameSkeleton(`copy${tail}`)}`.execute(db());
    expect(Number(rows[0]?.n)).toBe(1);
  });
});

describe('characters a username cannot have → 400, nothing created', () => {
  const invisible: Array<[string, string]> = [
    ['right-to-left override', 'abc\u202edef'],
    ['zero-width space', 'de\u200bmo'],
    ['zero-width joiner', 'new\u200duser'],
    ['left-to-right mark', '\u200enewuser'],
    ['right-to-left isolate', 'new\u2067user'],
    ['Arabic letter mark', 'new\u061cuser'],
    ['BOM', 'new\ufeffuser'],
    ['word joiner', 'new\u2060user'],
    ['soft hyphen', 'new\u00aduser'],
    ['Hangul filler', 'new\u3164user'],
    ['tab', 'new\tuser'],
    ['NUL', 'new\u0000user'],
  ];
  for (const [what, name] of invisible) {
    test(`${what} → invisible-character message`, async () => {
      await expectRefused(name, 400, MSG.usernameInvisible);
    });
  }

  test('spaces and symbols → allowed-characters message', async () => {
    await expectRefused('new user', 400, MSG.usernameCharacters);
    await expectRefused('new@user', 400, MSG.usernameCharacters);
    await expectRefused('new😀user', 400, MSG.usernameCharacters);
  });

  test('a name starting with a separator or a combining mark → start message', async () => {
    await expectRefused('_newuser', 400, MSG.usernameStart);
    await expectRefused('\u0301newuser', 400, MSG.usernameStart);
  });

  test('"dеmo" (Latin with a Cyrillic е) → mixed-scripts message', async () => {
    await expectRefused('d\u0435mo', 400, MSG.usernameMixedScripts);
    await expectRefused(`p\u0430ypal${digits()}`, 400, MSG.usernameMixedScripts);
  });

  test('the length is counted after NFKC: 19 "ﬀ" and 2 digits are 40 characters, 21 "ﬀ" are 42', async () => {
    expect((await signup('\ufb00'.repeat(19) + digits().slice(-2))).status).toBe(201);
    await expectRefused('\ufb00'.repeat(21), 400, MSG.usernameLength);
  });
});

describe('names that stay valid', () => {
  const names = ['user', 'alice', 'user_1.x-y', 'Zoë', 'josé', 'Ελλάδα', 'Москва', 'ユーザー', '김민준', 'नमस्ते', 'مريم'];
  for (const name of names) {
    test(`"${name}…" signs up as it was typed`, async () => {
      const username = `${name}${digits()}`;
      const res = await signup(username);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((res.body as User).username).toBe(username.normalize('NFKC'));
    });
  }
});

describe('migration 20261123_0004_username_skeleton', () => {
  test('backfills existing users; earlier look-alikes keep their names; the index then refuses new ones as 409', async () => {
    const created = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
    const database = await openDatabase(created ? { kind: 'postgres', url: created.url } : { kind: 'pglite', dir: ':memory:' });
    try {
      const legacy = database.db as unknown as Kysely<Omit<DB, 'users'> & { users: Omit<DB['users'], 'username_skeleton'> }>;
      const migrator = new Migrator({ db: database.db, provider: migrationProvider });
      const before = await migrator.migrateTo('20261121_0003_pin_likes_version');
      expect(before.error).toBeUndefined();
      // Accounts from before the rules: look-alikes of each other, a non-NFKC name, a space.
      const names = ['demo', 'd\u0435mo', 'ｄｅｍo', 'de\u200bmo', 'maya', 'has space'];
      const inserted = await legacy
        .insertInto('users')
        .values(names.map((username, i) => ({ email: `legacy${i}@example.test`, username, password_hash: 'x' })))
        .returning(['id', 'username'])
        .execute();

      expect((await migrator.migrateTo('20261123_0004_username_skeleton')).results?.map((r) => r.migrationName)).toEqual(['20261123_0004_username_skeleton']);

      const rows = await database.db.selectFrom('users').select(['id', 'username', 'username_skeleton']).orderBy('id').execute();
      expect(rows.map((r) => r.username)).toEqual(names);
      const ids = inserted.map((r) => r.id);
      expect(rows.map((r) => r.username_skeleton)).toEqual(['derno', `derno #${ids[1]}`, `derno #${ids[2]}`, `derno #${ids[3]}`, 'rnaya', 'has space']);

      const { rows: nullable } = await sql<{ is_nullable: string }>`
        select is_nullable from information_schema.columns where table_name = 'users' and column_name = 'username_skeleton'
      `.execute(database.db);
      expect(nullable).toEqual([{ is_nullable: 'NO' }]);

      const violation = await database.db
        .insertInto('users')
        .values({ email: 'new@example.test', username: 'DEM0', username_skeleton: usernameSkeleton('DEM0'), password_hash: 'x' })
        .execute()
        .then(
          () => undefined,
          (error: unknown) => error as object,
        );
      expect(violation).toMatchObject({ code: '23505', constraint: 'users_username_skeleton_key' });
      const mapped = mapDatabaseError(violation as object);
      expect(mapped?.status).toBe(409);
      expect(mapped?.fields).toEqual({ username: MSG.usernameTaken });

      const down = await migrator.migrateDown();
      expect(down.error).toBeUndefined();
      const { rows: columns } = await sql<{ n: string | number }>`
        select count(*) as n from information_schema.columns where table_name = 'users' and column_name = 'username_skeleton'
      `.execute(database.db);
      expect(Number(columns[0]?.n)).toBe(0);
    } finally {
      await database.close();
      await created?.drop();
    }
  });
});
