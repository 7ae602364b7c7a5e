import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { INVITE_RULES } from '../../contract/invite-rules.ts';
import { openDatabase } from '../../db/connect.ts';
import type { DB } from '../../db/schema.ts';
import { createResetLink } from '../account/password-reset.service.ts';
import { type Config, loadConfig } from '../config.ts';
import { createInvite } from '../invites/invites.service.ts';
import { redisTarget } from '../redis.ts';
import { endAccountEverywhere } from './instances.ts';

// `npm run users -- list | invite [--uses N] [--days D] | disable EMAIL | enable EMAIL | reset-link EMAIL`
// (docs/site-access.md), against DATABASE_URL or the embedded PGlite folder. The embedded database
// is one process's: in embedded mode, run it while the server is stopped.

const USAGE = `usage: npm run users -- list | invite [--uses N] [--days D] | disable EMAIL | enable EMAIL | reset-link EMAIL
In embedded mode (no DATABASE_URL) stop the server first: its database is one process's.`;

class UsageError extends Error {}

const byEmail = (email: string) => sql<boolean>`lower(email) = ${email.toLowerCase()}`;

/** The site's address for links the operator hands out: PUBLIC_ORIGIN's first, else a path alone. */
const origin = (config: Config) => config.publicOrigins[0] ?? '';

async function list(db: Kysely<DB>): Promise<void> {
  const rows = await db.selectFrom('users').select(['id', 'username', 'email', 'created_at', 'disabled_at']).orderBy('id').execute();
  const table = [
    ['id', 'username', 'email', 'created', 'disabled'],
    ...rows.map((row) => [String(row.id), row.username, row.email, row.created_at.toISOString(), row.disabled_at ? row.disabled_at.toISOString() : '-']),
  ];
  const widths = table[0]?.map((_, column) => Math.max(...table.map((line) => (line[column] ?? '').length))) ?? [];
  for (const line of table)
    console.log(
      line
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  console.log(`${rows.length} user${rows.length === 1 ? '' : 's'}.`);
}

function wholeNumber(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max}.`);
  return number;
}

async function invite(config: Config, db: Kysely<DB>, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { uses: { type: 'string' }, days: { type: 'string' } }, strict: true });
  const uses = wholeNumber(values.uses, 'uses', 1, INVITE_RULES.usesMax);
  const expiresInDays = wholeNumber(values.days, 'days', INVITE_RULES.daysDefault, INVITE_RULES.daysMax);
  const made = await createInvite(db, null, { uses, expiresInDays });
  console.log(`Invite ${made.code}: ${made.uses} sign-up${made.uses === 1 ? '' : 's'}, expires ${made.expiresAt}.`);
  console.log(`${origin(config)}${made.url}`);
  if (config.site.signups !== 'invite')
    console.log(`Note: SIGNUPS is ${config.site.signups}: ${config.site.signups === 'open' ? 'anyone may sign up without it' : 'nobody may sign up, with it or without'}.`);
}

async function setDisabled(config: Config, db: Kysely<DB>, email: string, disabled: boolean): Promise<void> {
  const row = await db
    .updateTable('users')
    .set({ disabled_at: disabled ? new Date() : null })
    .where(byEmail(email))
    .returning(['id', 'username', 'email'])
    .executeTakeFirst();
  if (!row) throw new UsageError(`No account has the email ${email}.`);
  const who = `user ${row.id} (${row.username}, ${row.email})`;
  if (!disabled) return console.log(`Enabled ${who}: it may sign in again.`);
  console.log(`Disabled ${who}: it cannot sign in, and its tokens are refused.`);
  const redis = redisTarget(config);
  if (redis) {
    const ended = await endAccountEverywhere(config, db, redis, row.id);
    console.log(
      `Ended ${ended.sessions} session${ended.sessions === 1 ? '' : 's'} and their sockets on every instance; ${ended.tokens} token${ended.tokens === 1 ? '' : 's'} forgotten by every instance.`,
    );
  } else if (config.database.kind === 'postgres') {
    console.log("Its sessions are in the server's memory: each ends at its next request (within 5 s), and its sockets with it.");
  } else console.log('Its sessions were in the stopped server’s memory: none survives a restart.');
}

async function resetLink(config: Config, db: Kysely<DB>, email: string): Promise<void> {
  const link = await createResetLink({ db }, email, origin(config));
  if (link === undefined) throw new UsageError(`No account has the email ${email}.`);
  console.log(`Password reset link for ${email.toLowerCase()} (single use, valid for an hour):`);
  console.log(link);
}

async function run(config: Config, db: Kysely<DB>, [command, ...args]: string[]): Promise<void> {
  const email = () => {
    if (args.length !== 1 || !args[0]?.includes('@')) throw new UsageError(USAGE);
    return args[0];
  };
  switch (command) {
    case 'list':
      return list(db);
    case 'invite':
      return invite(config, db, args);
    case 'disable':
      return setDisabled(config, db, email(), true);
    case 'enable':
      return setDisabled(config, db, email(), false);
    case 'reset-link':
      return resetLink(config, db, email());
    default:
      throw new UsageError(USAGE);
  }
}

const config = loadConfig();
const database = await openDatabase(config.database);
try {
  await run(config, database.db, process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError || (error instanceof TypeError && 'code' in error))) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await database.close();
}
