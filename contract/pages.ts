import { z } from 'zod';

// docs/page-images.md: the pictures of a web page, as GET /api/pages/images?url= finds them for the
// pin builder, the bookmarklet's window, the share target and bookmark imports.

/** At most this many pictures are answered for one page, best first. */
export const PAGE_IMAGES_MAX = 50;

export const PageImage = z
  .object({
    /** An absolute http(s) address, as a pin's `imageUrl` takes it. */
    url: z.string(),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
    alt: z.string().optional(),
  })
  .meta({ id: 'PageImage' });
export type PageImage = z.infer<typeof PageImage>;

export const PageImages = z
  .object({
    /** The address asked about, as given. */
    url: z.string(),
    /** The page's title (og:title, else <title>), '' when it has none or the URL is an image. */
    title: z.string(),
    images: z.array(PageImage),
  })
  .meta({ id: 'PageImages' });
export type PageImages = z.infer<typeof PageImages>;

/** The query's own refusals (an address the SSRF guard refuses is the route's: MSG.pageAddressRefused). */
export const PAGE_URL_MSG = {
  required: 'url is required.',
  tooLong: 'url must be at most 2048 characters.',
  invalid: 'url must be a full web address, such as https://example.com/page.',
} as const;

/** GET /api/pages/images?url=: the page (or picture) to read, an absolute address. */
export const PageImagesQuery = z.object({
  url: z
    .string({ error: PAGE_URL_MSG.required })
    .trim()
    .min(1, { error: PAGE_URL_MSG.required, abort: true })
    .max(2048, { error: PAGE_URL_MSG.tooLong, abort: true })
    .refine((value) => URL.canParse(value), PAGE_URL_MSG.invalid),
});
