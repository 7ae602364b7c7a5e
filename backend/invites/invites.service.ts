import { randomBytes } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { INVITE_RULES, inviteUrl } from '../../contract/invite-rules.ts';
import type { Invite } from '../../contract/invites.ts';
import { MSG } from '../../contract/messages.ts';
import type { DB } from '../../db/schema.ts';
import { HttpError } from '../errors.ts';

// Invite links (docs/site-access.md): with SIGNUPS=invite a sign-up needs a code a member (or the
// operator's command) made. A code admits `uses` sign-ups until it expires or its maker revokes it.

const DAY_MS = 24 * 3600_000;

const columns = ['id', 'code', 'uses', 'used', 'expires_at', 'created_at'] as const;

function toInvite(row: { id: number; code: string; uses: number; used: number; expires_at: Date; created_at: Date }): Invite {
  return {
    id: row.id,
    code: row.code,
    url: inviteUrl(row.code),
    uses: row.uses,
    used: row.used,
    remaining: row.uses - row.used,
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Makes an invite. `createdBy` null: the operator's command, which has no cap. A member may hold
 * INVITE_RULES.perUser at once; their user row's lock orders concurrent creates so the cap holds.
 */
export async function createInvite(db: Kysely<DB>, createdBy: number | null, options: { uses: number; expiresInDays: number }): Promise<Invite> {
  // 16 random bytes: 128 bits, nothing to guess (INVITE_RULES.codePattern).
  const code = randomBytes(16).toString('base64url');
  const row = await db.transaction().execute(async (trx) => {
    if (createdBy !== null) {
      await trx.selectFrom('users').select('id').where('id', '=', createdBy).forUpdate().executeTakeFirst();
      const { held } = await trx
        .selectFrom('invites')
        .select(sql<number>`count(*)::int`.as('held'))
        .where('created_by', '=', createdBy)
        .executeTakeFirstOrThrow();
      if (held >= INVITE_RULES.perUser) throw new HttpError(409, MSG.invitesFull);
    }
    return trx
      .insertInto('invites')
      .values({ code, created_by: createdBy, uses: options.uses, expires_at: new Date(Date.now() + options.expiresInDays * DAY_MS) })
      .returning(columns)
      .executeTakeFirstOrThrow();
  });
  return toInvite(row);
}

/** The member's invites, newest first (at most INVITE_RULES.perUser: no paging needed). */
export async function listInvites(db: Kysely<DB>, userId: number): Promise<Invite[]> {
  const rows = await db.selectFrom('invites').select(columns).where('created_by', '=', userId).orderBy('id', 'desc').execute();
  return rows.map(toInvite);
}

/** Revokes (deletes) one of the member's invites; another's, or none, is 404. */
export async function revokeInvite(db: Kysely<DB>, userId: number, inviteId: number): Promise<void> {
  const row = await db.deleteFrom('invites').where('id', '=', inviteId).where('created_by', '=', userId).returning('id').executeTakeFirst();
  if (!row) throw new HttpError(404, MSG.inviteNotFound);
}

const invalid = () => new HttpError(403, MSG.inviteInvalid, { fields: { invite: MSG.inviteInvalid } });

/** Whether the code could admit a sign-up now: checked before the password is hashed, so a bad code costs no hashing. */
export async function checkInvite(db: Kysely<DB>, code: string): Promise<void> {
  if (!INVITE_RULES.codePattern.test(code)) throw invalid();
  const row = await db
    .selectFrom('invites')
    .select('id')
    .where('code', '=', code)
    .where((eb) => eb('used', '<', eb.ref('uses')))
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row) throw invalid();
}

/**
 * Takes one use of the code, in the sign-up's transaction: a single conditional update, so two
 * sign-ups with the last use wait on the row and exactly one gets it. Rolled back with the
 * sign-up (a taken email gives the use back).
 */
export async function claimInvite(trx: Transaction<DB>, code: string): Promise<void> {
  const row = await trx
    .updateTable('invites')
    .set((eb) => ({ used: eb('used', '+', 1) }))
    .where('code', '=', code)
    .where((eb) => eb('used', '<', eb.ref('uses')))
    .where('expires_at', '>', new Date())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw invalid();
}
