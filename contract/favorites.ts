import { z } from 'zod';
import { PinImage } from './images.ts';
import { NextCursor } from './paging.ts';
import { PIN_VISIBILITIES } from './visibility.ts';

export const Favorite = z
  .object({
    id: z.number().int(),
    pin_id: z.number().int(),
    title: z.string(),
    image_url: z.string(),
    image: PinImage.nullable(),
    likes_count: z.number().int(),
    /** The version of that count (as `pin:likes` carries it): a client keeps the count of the highest version seen. */
    likes_version: z.number().int(),
    /** Who sees the pin (docs/who-sees-what.md): the favorites grid marks private ones with a lock (absent: public, as for BoardPin). */
    visibility: z.enum(PIN_VISIBILITIES).optional(),
  })
  .meta({ id: 'Favorite' });
export type Favorite = z.infer<typeof Favorite>;

/** GET /api/favorites/ answers under `pins` (docs/product.md §7), each entry a favorite; newest first, paged. */
export const FavoriteList = z.object({ pins: z.array(Favorite), nextCursor: NextCursor }).meta({ id: 'FavoriteList' });
export type FavoriteList = z.infer<typeof FavoriteList>;

export const AlreadyFavorited = z.object({ message: z.literal('Already favorited') }).meta({ id: 'AlreadyFavorited' });

export const FavoriteRemoved = z
  .object({
    message: z.string(),
    id: z.number().int(),
    pin_id: z.number().int(),
    likes_count: z.number().int(),
    /** The version of that count, as in Favorite. */
    likes_version: z.number().int(),
  })
  .meta({ id: 'FavoriteRemoved' });
export type FavoriteRemoved = z.infer<typeof FavoriteRemoved>;
