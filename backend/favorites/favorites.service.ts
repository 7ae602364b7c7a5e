import { type Kysely, sql } from 'kysely';
import type { Favorite } from '../../contract/favorites.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { forbidden, notFound } from '../http/errors.ts';

const likesCount = sql<number>`(select count(*)::int from favorites as f where f.pin_id = pins.id)`;

function selectFavorites(db: Kysely<DB>) {
  return db
    .selectFrom('favorites')
    .innerJoin('pins', 'pins.id', 'favorites.pin_id')
    .select(['favorites.id', 'favorites.pin_id', 'pins.title', 'pins.image_url', likesCount.as('likes_count')]);
}

export async function listFavorites(db: Kysely<DB>, userId: number): Promise<Favorite[]> {
  return selectFavorites(db)
    .where('favorites.user_id', '=', userId)
    .orderBy('favorites.created_at', 'desc')
    .orderBy('favorites.id', 'desc')
    .execute();
}

async function countLikes(db: Kysely<DB>, pinId: number): Promise<number> {
  const row = await db
    .selectFrom('favorites')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('pin_id', '=', pinId)
    .executeTakeFirstOrThrow();
  return row.count;
}

/**
 * Favorites a pin. Returns `undefined` when the user had already favorited it. The unique
 * (user_id, pin_id) constraint with ON CONFLICT DO NOTHING makes parallel requests safe.
 */
export async function addFavorite(ctx: ServiceContext, userId: number, pinId: number): Promise<Favorite | undefined> {
  const pin = await ctx.db.selectFrom('pins').select('id').where('id', '=', pinId).executeTakeFirst();
  if (!pin) throw notFound('Pin');
  const inserted = await ctx.db
    .insertInto('favorites')
    .values({ user_id: userId, pin_id: pinId })
    .onConflict((oc) => oc.constraint('favorites_user_pin_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return undefined;
  const favorite = await selectFavorites(ctx.db).where('favorites.id', '=', inserted.id).executeTakeFirst();
  // The pin may have been deleted in between; the cascade took the favorite with it.
  if (!favorite) throw notFound('Pin');
  ctx.events.publish('favorite.added', { userId, favorite });
  ctx.events.publish('pin.likes', { pinId, likesCount: favorite.likes_count });
  return favorite;
}

export async function removeFavorite(
  ctx: ServiceContext,
  userId: number,
  favoriteId: number,
): Promise<{ pinId: number; likesCount: number }> {
  const row = await ctx.db
    .selectFrom('favorites')
    .select(['user_id', 'pin_id'])
    .where('id', '=', favoriteId)
    .executeTakeFirst();
  if (!row) throw notFound('Favorite');
  if (row.user_id !== userId) throw forbidden();
  const deleted = await ctx.db
    .deleteFrom('favorites')
    .where('id', '=', favoriteId)
    .where('user_id', '=', userId)
    .returning('pin_id')
    .executeTakeFirst();
  if (!deleted) throw notFound('Favorite');
  const likes = await countLikes(ctx.db, row.pin_id);
  ctx.events.publish('favorite.removed', { userId, favoriteId, pinId: row.pin_id });
  ctx.events.publish('pin.likes', { pinId: row.pin_id, likesCount: likes });
  return { pinId: row.pin_id, likesCount: likes };
}
