import { type Kysely, sql } from 'kysely';
import type { Pin } from '../../contract/pins.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';

/** Pins with owner and likes count in one query: no query per pin. */
function selectPins(db: Kysely<DB>) {
  return db
    .selectFrom('pins')
    .innerJoin('users', 'users.id', 'pins.user_id')
    .select([
      'pins.id',
      'pins.title',
      'pins.image_url',
      'pins.description',
      'pins.user_id',
      'pins.created_at',
      'pins.updated_at',
      'users.username',
      sql<number>`(select count(*)::int from favorites where favorites.pin_id = pins.id)`.as('likes_count'),
    ]);
}

type PinRow = Awaited<ReturnType<ReturnType<typeof selectPins>['executeTakeFirstOrThrow']>>;

function toPin(row: PinRow): Pin {
  return {
    id: row.id,
    title: row.title,
    image_url: row.image_url,
    description: row.description,
    user_id: row.user_id,
    user: { id: row.user_id, username: row.username },
    likes_count: row.likes_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function listPins(db: Kysely<DB>): Promise<Pin[]> {
  const rows = await selectPins(db).orderBy('pins.created_at', 'desc').orderBy('pins.id', 'desc').execute();
  return rows.map(toPin);
}

async function findPin(db: Kysely<DB>, id: number): Promise<Pin | undefined> {
  const row = await selectPins(db).where('pins.id', '=', id).executeTakeFirst();
  return row && toPin(row);
}

export async function getPin(db: Kysely<DB>, id: number): Promise<Pin> {
  const pin = await findPin(db, id);
  if (!pin) throw notFound('Pin');
  return pin;
}

/** Throws 404 for an unknown pin, 403 for someone else's. */
async function assertOwnPin(db: Kysely<DB>, userId: number, id: number): Promise<void> {
  const row = await db.selectFrom('pins').select('user_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Pin');
  if (row.user_id !== userId) throw forbidden();
}

export async function createPin(
  ctx: ServiceContext,
  userId: number,
  input: { title: string; imageUrl: string; description: string },
): Promise<Pin> {
  const { id } = await ctx.db
    .insertInto('pins')
    .values({ user_id: userId, title: input.title, image_url: input.imageUrl, description: input.description })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pin = await getPin(ctx.db, id);
  ctx.events.publish('pin.created', { pin });
  return pin;
}

export async function updatePin(
  ctx: ServiceContext,
  userId: number,
  id: number,
  input: { title: string; description: string },
): Promise<Pin> {
  await assertOwnPin(ctx.db, userId, id);
  const updated = await ctx.db
    .updateTable('pins')
    .set({ title: input.title, description: input.description, updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw notFound('Pin');
  const pin = await getPin(ctx.db, id);
  ctx.events.publish('pin.updated', { pin });
  return pin;
}

export async function deletePin(ctx: ServiceContext, userId: number, id: number): Promise<void> {
  await assertOwnPin(ctx.db, userId, id);
  const deleted = await ctx.db
    .deleteFrom('pins')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw notFound('Pin');
  ctx.events.publish('pin.deleted', { pinId: id, ownerId: userId });
}
