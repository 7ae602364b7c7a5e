import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/schema.ts';
import { PHASH_NEAR } from './phash.ts';

// Stored pictures that look like one picture (docs/images.md "Finding look-alikes"): the one
// look-up duplicates and "More like this" share.
//
// Two 64-bit hashes at most 7 bits apart are equal in at least one of their eight bytes
// (pigeonhole), so the candidates are the pictures equal to the hash, or to its mirror's, in some
// byte band. Each band has a covering index (migration 20261129_0029: the band, then phash and
// sha256), and each (hash, band) pair is its own branch of a union: an index-only range scan of
// about 1/256 of the hashed pictures, never their heap pages. The XOR's set bits then decide
// (`bit_count`, Postgres 14+ and PGlite). Pictures exactly PHASH_NEAR bits apart in every band are
// the one case the bands can miss.

export interface HashedPicture {
  /** Signed 64-bit integers as Postgres returns bigint: decimal strings. */
  phash: string;
  phash_mirror: string | null;
}

export interface NearPicture {
  sha256: string;
  /** Bits apart from the nearer of the two hashes. */
  distance: number;
}

/** The pictures at most PHASH_NEAR bits from `picture` or its mirror, nearest first, at most `limit`. */
export async function nearPictures(db: Kysely<DB>, picture: HashedPicture, limit: number): Promise<NearPicture[]> {
  const hashes = [BigInt(picture.phash), ...(picture.phash_mirror === null ? [] : [BigInt(picture.phash_mirror)])];
  const branches = hashes.flatMap((hash) =>
    Array.from({ length: 8 }, (_, band) => {
      const shift = sql.raw(String(band * 8));
      // Arithmetic shifts on both sides (JS BigInt and Postgres bigint), so the bytes agree.
      const byte = Number((hash >> BigInt(band * 8)) & 255n);
      return sql`select sha256, phash from images where phash is not null and ((phash >> ${shift}) & 255) = ${byte}::bigint`;
    }),
  );
  const distance = sql<number>`least(${sql.join(
    hashes.map((hash) => sql`bit_count((candidate.phash # ${hash.toString()}::bigint)::bit(64))`),
    sql`, `,
  )})`;
  const { rows } = await sql<NearPicture>`
    select candidate.sha256, ${distance}::int as distance
    from (${sql.join(branches, sql` union `)}) as candidate
    where ${distance} <= ${PHASH_NEAR}
    order by 2, 1
    limit ${limit}`.execute(db);
  return rows;
}
