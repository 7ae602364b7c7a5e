import { z } from 'zod';
import { idField, imageUrl, isoTimestamp, optionalText, requiredText } from './fields.ts';
import { PinImage } from './images.ts';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';
import { NextCursor } from './paging.ts';
import { optionalSourceUrl } from './source-url.ts';
import { PIN_VISIBILITIES } from './visibility.ts';

export const PinVisibility = z.enum(PIN_VISIBILITIES).meta({ id: 'PinVisibility' });

/** A pin's alt text in a body: trimmed, ≤ 500 characters; an empty one is null (none). */
const altText = optionalText(LIMITS.altText, 'Alt text')
  .optional()
  .transform((value) => (value === undefined ? undefined : value === '' ? null : value));

export const Pin = z
  .object({
    id: z.number().int(),
    title: z.string(),
    image_url: z.string(),
    /** The stored image (docs/images.md); null while a remote image is not imported (or could not be). */
    image: PinImage.nullable(),
    description: z.string(),
    /** The description's #tags, lower-cased, without `#`, in order (contract/tags.ts). */
    tags: z.array(z.string()),
    user_id: z.number().int(),
    user: z.object({ id: z.number().int(), username: z.string() }),
    likes_count: z.number().int(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    /** The page the image was saved from (docs/tokens-and-capture.md), or null. */
    source_url: z.string().nullable(),
    /** Who sees it (docs/who-sees-what.md): everyone, or only its owner and its boards' members. */
    visibility: PinVisibility,
    /** What its owner says the picture shows (≤ 500 characters), or null (docs/images.md). */
    alt_text: z.string().nullable(),
  })
  .meta({ id: 'Pin' });
export type Pin = z.infer<typeof Pin>;

/** One page of pins (docs/paging.md); walk `nextCursor` until it is null. */
export const PinList = z.object({ pins: z.array(Pin), nextCursor: NextCursor }).meta({ id: 'PinList' });
export type PinList = z.infer<typeof PinList>;

export const PinCreateBody = z
  .object({
    title: requiredText(MSG.titleRequired, LIMITS.title, 'Title'),
    imageUrl,
    description: optionalText(LIMITS.description, 'Description'),
    sourceUrl: optionalSourceUrl,
    /** A board the caller may add to: the pin is made in it, in one transaction. */
    boardId: idField('boardId').optional(),
    /** Absent: private when made into a private board, else public (docs/who-sees-what.md). */
    visibility: PinVisibility.optional(),
    /** What the picture shows, for people who cannot see it; empty or absent: none. */
    altText,
  })
  .meta({ id: 'PinCreateBody' });

/**
 * SPEC's {title, description}; `imageUrl` (optional, the pin's owner mending its image) replaces the
 * image: a same-site /media/ address of an upload is attached at once, any other is imported again
 * (docs/image-repair.md); `visibility` alone switches who sees it (the rest is then left as it is).
 */
export const PinUpdateBody = z
  .object({
    title: requiredText(MSG.titleRequired, LIMITS.title, 'Title').optional(),
    /** With a title, absent is empty (as SPEC's edit has it); without one, left as it is. */
    description: optionalText(LIMITS.description, 'Description').optional(),
    imageUrl: imageUrl.optional(),
    visibility: PinVisibility.optional(),
    /** Absent: left as it is; empty: removed. */
    altText,
  })
  .refine((body) => body.title !== undefined || body.visibility !== undefined, { message: MSG.titleRequired, path: ['title'] })
  .meta({ id: 'PinUpdateBody' });

/** Body of calls that name one pin: POST /api/favorites/ and POST /api/boards/{id}/pins. */
export const PinRefBody = z.object({ pin_id: idField('pin_id') }).meta({ id: 'PinRefBody' });

export const PinDeleted = z.object({ message: z.string(), id: z.number().int() }).meta({ id: 'PinDeleted' });
export type PinDeleted = z.infer<typeof PinDeleted>;
