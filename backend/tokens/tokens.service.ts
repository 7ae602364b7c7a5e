import { type Kysely, type Selectable, sql } from 'kysely';
import type { ApiToken, TokenCreated, TokenScope } from '../../contract/tokens.ts';
import { TOKEN_LIMITS, TOKEN_MSG } from '../../contract/token-rules.ts';
import type { ApiTokensTable, DB } from '../../db/schema.ts';
import { HttpError, notFound } from '../errors.ts';
import { hashSecret, newSecret } from './secrets.ts';

const DAY_MS = 24 * 3600_000;

type TokenRow = Selectable<ApiTokensTable>;

function toApiToken(row: Omit<TokenRow, 'secret_hash' | 'user_id'>): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
  };
}

const LISTED = ['id', 'name', 'scope', 'created_at', 'expires_at', 'last_used_at'] as const;

/** Mints a token; its secret is in the answer and nowhere else (only its hash is stored). */
export async function createToken(db: Kysely<DB>, userId: number, input: { name: string; scope: TokenScope; expiresInDays?: number | null | undefined }): Promise<TokenCreated> {
  const secret = newSecret();
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null;
  const row = await db.transaction().execute(async (trx) => {
    // The user's row lock orders concurrent creates, so the cap holds under a race.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
    const { held } = await trx
      .selectFrom('api_tokens')
      .select(sql<number>`count(*)::int`.as('held'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (held >= TOKEN_LIMITS.perUser) throw new HttpError(409, TOKEN_MSG.tooMany);
    return trx
      .insertInto('api_tokens')
      .values({ user_id: userId, name: input.name, scope: input.scope, secret_hash: hashSecret(secret), expires_at: expiresAt })
      .returning(LISTED)
      .executeTakeFirstOrThrow();
  });
  return { token: toApiToken(row), secret };
}

/** The user's tokens, newest first (at most TOKEN_LIMITS.perUser: no paging needed). */
export async function listTokens(db: Kysely<DB>, userId: number): Promise<ApiToken[]> {
  const rows = await db.selectFrom('api_tokens').select(LISTED).where('user_id', '=', userId).orderBy('id', 'desc').execute();
  return rows.map(toApiToken);
}

/** Deletes the user's token and gives its hash (for the caches to forget); 404 for anyone else's. */
export async function revokeToken(db: Kysely<DB>, userId: number, id: number): Promise<string> {
  const row = await db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', userId).returning('secret_hash').executeTakeFirst();
  if (!row) throw notFound('Token');
  return row.secret_hash;
}

/** The token with this secret hash, for the check of a bearer request. */
/** A token of a disabled account is no token (docs/site-access.md): it is refused like an unknown one. */
export function findTokenByHash(db: Kysely<DB>, secretHash: string) {
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['api_tokens.id', 'api_tokens.user_id', 'api_tokens.scope', 'api_tokens.expires_at'])
    .where('api_tokens.secret_hash', '=', secretHash)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
}
