import { type Kysely, sql } from 'kysely';

// A favorite added or removed is one call to one of these functions: one round trip, in the
// statement's own transaction, instead of a read and then BEGIN … COMMIT (five or six round trips).
//
// Every change to a pin's count and version happens under the pin's row lock (FOR NO KEY UPDATE),
// held to the commit, so concurrent changes to one pin line up in commit order (clients keep the
// highest version). Locks are taken pin before favorite, the order of a pin's deletion (the pin,
// then its favorites by cascade), so neither call can deadlock against it or against each other:
// an add takes the pin's key lock, inserts, then the row lock (by the likes_count trigger, an AFTER
// ROW trigger fired at the end of the insert, then by the likes_version bump); a remove takes the
// row lock, then deletes. The bump's RETURNING reads the count the trigger has just written: each
// statement in a function sees the effects of the ones before it.
//
// Each answers with `outcome` and what the service needs to answer every case of the REST call.
// Written against Kysely<any> on purpose, like every migration.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function favorite_add(p_user_id integer, p_pin_id integer,
      out outcome text, out favorite_id integer, out title text, out image_url text,
      out likes_count integer, out likes_version integer)
    language plpgsql as $$
    begin
      -- The pin's key lock first: what the foreign key check takes anyway, taken here so that a
      -- pin unknown or being deleted is an answer ('no_pin', after the deletion commits) rather
      -- than a violation to catch (an exception handler would cost a subtransaction per call).
      perform from pins where pins.id = p_pin_id for key share;
      if not found then
        outcome := 'no_pin';
        return;
      end if;
      insert into favorites (user_id, pin_id) values (p_user_id, p_pin_id)
        on conflict on constraint favorites_user_pin_key do nothing
        returning favorites.id into favorite_id;
      if favorite_id is null then
        outcome := 'already';
        return;
      end if;
      update pins set likes_version = pins.likes_version + 1 where pins.id = p_pin_id
        returning pins.title, pins.image_url, pins.likes_count, pins.likes_version
        into title, image_url, likes_count, likes_version;
      outcome := 'added';
    end $$`.execute(db);

  await sql`
    create function favorite_remove(p_user_id integer, p_favorite_id integer,
      out outcome text, out pin_id integer, out likes_count integer, out likes_version integer)
    language plpgsql as $$
    declare
      v_pin_id integer;
      v_owner integer;
    begin
      select favorites.pin_id, favorites.user_id into v_pin_id, v_owner from favorites where favorites.id = p_favorite_id;
      if v_pin_id is null then
        outcome := 'no_favorite';
        return;
      end if;
      if v_owner <> p_user_id then
        outcome := 'not_yours';
        return;
      end if;
      -- The pin's row before the favorite's, as a pin's deletion takes them (the pin, then its
      -- favorites by cascade): deleting the favorite first and leaving the trigger to lock the pin
      -- deadlocked against it. No pin: it was deleted, and the favorite with it.
      perform from pins where pins.id = v_pin_id for no key update;
      if not found then
        outcome := 'no_favorite';
        return;
      end if;
      delete from favorites where favorites.id = p_favorite_id and favorites.user_id = p_user_id
        returning favorites.pin_id into pin_id;
      if pin_id is null then
        -- Removed by a concurrent call while this one waited for the pin.
        outcome := 'no_favorite';
        return;
      end if;
      update pins set likes_version = pins.likes_version + 1 where pins.id = pin_id
        returning pins.likes_count, pins.likes_version into likes_count, likes_version;
      outcome := 'removed';
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists favorite_remove(integer, integer)`.execute(db);
  await sql`drop function if exists favorite_add(integer, integer)`.execute(db);
}
