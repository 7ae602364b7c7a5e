import { type Kysely, sql } from 'kysely';
import type { Favorite, FavoriteList } from '../../contract/favorites.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { write } from '../changes/write.ts';
import { forbidden, notFound } from '../errors.ts';
import { imageOf, toPinImage } from '../images/media-urls.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { visibleTo } from '../visibility/pin-access.ts';
import { likesCountOfPins } from '../pins/likes-count.ts';
import { announceLikes, type LikesAfter } from './likes.ts';

function selectFavorites(db: Kysely<DB>) {
  return db
    .selectFrom('favorites')
    .innerJoin('pins', 'pins.id', 'favorites.pin_id')
    .select((eb) => ['favorites.id', 'favorites.pin_id', 'pins.title', 'pins.image_url', imageOf(eb).as('image'), likesCountOfPins.as('likes_count'), 'pins.likes_version', 'pins.visibility']);
}

/** One page of the user's favorites, most recent first: of the pins they may still see (docs/who-sees-what.md). */
export async function listFavorites(db: Kysely<DB>, cursors: CursorCodec, userId: number, query: PageParams): Promise<FavoriteList> {
  const page = keyset(cursors, `favorites:user:${userId}`, query);
  let select = selectFavorites(db)
    .where('favorites.user_id', '=', userId)
    .where(visibleTo(userId))
    .orderBy('favorites.id', 'desc')
    .limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('favorites.id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.id);
  return { pins: items.map((row) => ({ ...row, image: row.image && toPinImage(row.image) })), nextCursor };
}

// The writes are one call each to a function of migration 20261129_0031 (the likes count and
// version included, and whether the change is settled: likes.ts), in a transaction that also writes
// their change-log rows: the favorite (only its owner may read it) and the pin's new count (public),
// or the job that announces that count once the change has committed. Their `outcome` says which
// answer the API gives. Neither waits for another favorite's commit.
type FavoriteAddRow = ({ outcome: 'added'; favorite_id: number; title: string; image_url: string } & LikesAfter) | { outcome: 'already' | 'no_pin' };
type FavoriteRemoveRow = ({ outcome: 'removed'; pin_id: number } & LikesAfter) | { outcome: 'no_favorite' | 'not_yours' };

/**
 * Favorites a pin. Returns `undefined` when the user had already favorited it. The unique
 * (user_id, pin_id) constraint with ON CONFLICT DO NOTHING makes parallel requests safe.
 */
export async function addFavorite(ctx: ServiceContext, userId: number, pinId: number): Promise<Favorite | undefined> {
  return write(ctx, async (db, record) => {
    // A pin the user may not see is one that does not exist. The function predates stored images:
    // their fields come with this check, not through a change of the function's signature.
    const image = await db
      .selectFrom('pins')
      .select((eb) => [imageOf(eb).as('image'), 'pins.visibility'])
      .where('pins.id', '=', pinId)
      .where(visibleTo(userId))
      .executeTakeFirst();
    if (!image) throw notFound('Pin');
    const { rows } = await sql<FavoriteAddRow>`select * from favorite_add(${userId}, ${pinId})`.execute(db);
    const row = rows[0];
    if (row?.outcome === 'already') return undefined;
    if (row?.outcome !== 'added') throw notFound('Pin');
    const favorite: Favorite = {
      id: row.favorite_id,
      pin_id: pinId,
      title: row.title,
      image_url: row.image_url,
      image: image.image ? toPinImage(image.image) : null,
      likes_count: row.likes_count,
      likes_version: row.likes_version,
      visibility: image.visibility,
    };
    record('favorite:added', { favorite }, { userIds: [userId] });
    await announceLikes(ctx, db, record, pinId, row);
    return favorite;
  });
}

/** Removes one of the user's favorites: 404 when there is no such favorite, 403 when it is someone else's. */
export async function removeFavorite(ctx: ServiceContext, userId: number, favoriteId: number): Promise<{ pinId: number; likesCount: number; likesVersion: number }> {
  return write(ctx, async (db, record) => {
    const { rows } = await sql<FavoriteRemoveRow>`select * from favorite_remove(${userId}, ${favoriteId})`.execute(db);
    const row = rows[0];
    if (row?.outcome === 'not_yours') throw forbidden();
    if (row?.outcome !== 'removed') throw notFound('Favorite');
    const pinId = row.pin_id;
    record('favorite:removed', { favoriteId, pinId }, { userIds: [userId] });
    await announceLikes(ctx, db, record, pinId, row);
    return { pinId, likesCount: row.likes_count, likesVersion: row.likes_version };
  });
}
