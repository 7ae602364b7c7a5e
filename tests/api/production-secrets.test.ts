// A production server never accepts the demo's default password (the README prints it), even when
// its database was seeded outside production with it; and seeding under production replaces it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { User } from '../../contract/users.ts';
import { hashPassword } from '../../backend/auth/passwords.ts';
import { seedDemoData } from '../../db/seed.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { startServer, testDatabaseKind } from '../support/server.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

const DEFAULT = 'demo-password';
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 'a-production-secret-of-at-least-32-characters', DEMO_PASSWORD: 'the real demo secret' };
const badCredentials = {
  message: 'The provided credentials were invalid.',
  errors: ['The provided credentials were invalid.'],
  fields: { credential: 'The provided credentials were invalid.' },
};

describe('a production server on a database seeded outside production', () => {
  const server = useTestServer({ env: PRODUCTION });
  beforeAll(async () => {
    // What `npm run db:seed` without NODE_ENV=production left behind: the demo account with the default password.
    await seedDemoData(server.server.database.db, { demo: { ...server.config.demo, password: DEFAULT }, hashPassword, pins: 2 });
  });

  test('refuses the default demo password at sign-in, with the answer any wrong password gets', async () => {
    const res = await new ApiClient(server.url).post<ErrorBody>('/api/auth/login', { email: 'demo@pinboard.test', password: DEFAULT });
    const wrong = await new ApiClient(server.url).post<ErrorBody>('/api/auth/login', { email: 'demo@pinboard.test', password: 'not the password' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(badCredentials);
    expect(res.body).toEqual(wrong.body);
  });

  test('refuses it as a new password too, and signs in other accounts as usual', async () => {
    const refused = await new ApiClient(server.url).post<ErrorBody>('/api/auth/signup', { email: 'copycat@example.test', username: 'copycat', password: DEFAULT });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ password: 'That password is publicly known. Choose another.' });
    const { user, password } = await signUpUser(server.url, 'prod');
    const res = await new ApiClient(server.url).post<User>('/api/auth/login', { email: user.email, password });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user.id);
  });
});

// The seed command runs against the Postgres server, so this block is declared in that project only
// (not a skip: the embedded project has no such command to check).
if (testDatabaseKind() === 'postgres')
  describe('npm run db:seed under production', () => {
    const run = promisify(execFile);
    const seed = (env: Record<string, string>) => run(process.execPath, ['backend/cli/db.ts', 'seed'], { env: { PATH: process.env.PATH ?? '', ...env } });

    test('refuses to run with the default demo password', async () => {
      const { databaseUrl, stop } = await startServer({});
      try {
        const failed = await seed({ ...PRODUCTION, DEMO_PASSWORD: DEFAULT, DATABASE_URL: databaseUrl! }).catch((error: { code: number; stderr: string }) => error);
        expect('code' in failed && failed.code).not.toBe(0);
        expect((failed as { stderr: string }).stderr).toContain('DEMO_PASSWORD must be set to a secret value when NODE_ENV=production');
      } finally {
        await stop();
      }
    });

    test('replaces the default demo password a database seeded outside production still has', async () => {
      await withTestServer({ seed: { pins: 2 } }, async (seeded) => {
        const { stdout } = await seed({ ...PRODUCTION, DATABASE_URL: seeded.databaseUrl!, JOB_WORKERS: 'false' });
        expect(stdout).toContain('The demo account had the default password: it now has DEMO_PASSWORD.');
        // Even a server outside production no longer takes the old one; the new one signs in.
        expect((await new ApiClient(seeded.url).post('/api/auth/login', { email: 'demo@pinboard.test', password: DEFAULT })).status).toBe(401);
        expect((await new ApiClient(seeded.url).post('/api/auth/login', { email: 'demo@pinboard.test', password: PRODUCTION.DEMO_PASSWORD })).status).toBe(200);
      });
    });
  });
