import type { Kysely } from 'kysely';
import type { Favorite, FavoriteList } from '../../contract/favorites.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';

function selectFavorites(db: Kysely<DB>) {
  return db
    .selectFrom('favorites')
    .innerJoin('pins', 'pins.id', 'favorites.pin_id')
    .select(['favorites.id', 'favorites.pin_id', 'pins.title', 'pins.image_url', 'pins.likes_count']);
}

/** One page of the user's favorites, most recent first. */
export async function listFavorites(db: Kysely<DB>, cursors: CursorCodec, userId: number, query: PageParams): Promise<FavoriteList> {
  const page = keyset(cursors, `favorites:user:${userId}`, query);
  let select = selectFavorites(db).where('favorites.user_id', '=', userId).orderBy('favorites.id', 'desc').limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('favorites.id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.id);
  return { pins: items, nextCursor };
}

/**
 * After a favorite was added or removed, inside its transaction: bump the pin's likes version and
 * read its count (kept by a trigger on favorites) in one statement, under the pin's row lock, so
 * concurrent changes to one pin's count line up in commit order. Undefined when the pin is gone.
 */
async function likesAfterChange(trx: Kysely<DB>, pinId: number): Promise<{ likesCount: number; version: number } | undefined> {
  const bumped = await trx
    .updateTable('pins')
    .set((eb) => ({ likes_version: eb('likes_version', '+', 1) }))
    .where('id', '=', pinId)
    .returning(['likes_version', 'likes_count'])
    .executeTakeFirst();
  return bumped && { likesCount: bumped.likes_count, version: bumped.likes_version };
}

/**
 * Favorites a pin. Returns `undefined` when the user had already favorited it. The unique
 * (user_id, pin_id) constraint with ON CONFLICT DO NOTHING makes parallel requests safe.
 */
export async function addFavorite(ctx: ServiceContext, userId: number, pinId: number): Promise<Favorite | undefined> {
  const pin = await ctx.db.selectFrom('pins').select('id').where('id', '=', pinId).executeTakeFirst();
  if (!pin) throw notFound('Pin');
  const added = await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('favorites')
      .values({ user_id: userId, pin_id: pinId })
      .onConflict((oc) => oc.constraint('favorites_user_pin_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return undefined;
    const likes = await likesAfterChange(trx, pinId);
    const favorite = await selectFavorites(trx).where('favorites.id', '=', inserted.id).executeTakeFirst();
    // The pin may have been deleted in between; the cascade took the favorite with it.
    if (!likes || !favorite) throw notFound('Pin');
    return { favorite: { ...favorite, likes_count: likes.likesCount }, likes };
  });
  if (!added) return undefined;
  // Published after the commit.
  ctx.events.publish('favorite.added', { userId, favorite: added.favorite });
  ctx.events.publish('pin.likes', { pinId, ...added.likes });
  return added.favorite;
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
  const likes = await ctx.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('favorites')
      .where('id', '=', favoriteId)
      .where('user_id', '=', userId)
      .returning('pin_id')
      .executeTakeFirst();
    if (!deleted) throw notFound('Favorite');
    // The pin is there: the favorite's foreign key would have cascaded otherwise.
    const after = await likesAfterChange(trx, row.pin_id);
    if (!after) throw notFound('Favorite');
    return after;
  });
  ctx.events.publish('favorite.removed', { userId, favoriteId, pinId: row.pin_id });
  ctx.events.publish('pin.likes', { pinId: row.pin_id, ...likes });
  return { pinId: row.pin_id, likesCount: likes.likesCount };
}
