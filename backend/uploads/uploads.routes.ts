import { ENDPOINTS } from '../../contract/endpoints.ts';
import { IMAGE_LIMITS } from '../../contract/images.ts';
import { ImageUploaded } from '../../contract/duplicates.ts';
import { MSG } from '../../contract/messages.ts';
import { findDuplicates } from '../duplicates/find-duplicates.ts';
import { ImageRefusedError } from '../errors.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { detectImageFormat } from '../images/detect.ts';
import { storeImage } from '../images/images.service.ts';

export const uploadRoutes: ApiRoute[] = [
  route(ENDPOINTS['POST /api/images/'], {
    summary:
      'Upload an image (multipart/form-data, the file in the field "file"); answers it stored, with its size, placeholder and thumbnails, and your pins with the same or nearly the same picture',
    auth: 'user',
    upload: {
      field: IMAGE_LIMITS.uploadField,
      maxBytes: IMAGE_LIMITS.maxBytes,
      tooLarge: MSG.imageTooLarge,
      missing: MSG.imageMissing,
      types: IMAGE_LIMITS.types,
      description:
        'One JPEG, PNG, WebP, GIF or AVIF file (recognised by its bytes, not its name or type), at most 20 MB, 50 megapixels, 16,384 pixels on its longest side and 20 times as long as it is wide. Stored without its metadata (EXIF, XMP, IPTC, comments), turned upright, colour profile kept.',
      // The first bytes decide: anything but the five formats is refused before the rest is read.
      sniff: async (head: Buffer) => {
        if (head.length === 0) return new ImageRefusedError('empty');
        return (await detectImageFormat(head)) ? undefined : new ImageRefusedError('not-an-image');
      },
    },
    errors: [408],
    handler: async ({ ctx, media, res, file, userId }) => {
      // Thumbnails are made before the answer, so its URLs work at once (docs/images.md).
      const stored = await storeImage({ db: ctx.db, storage: media, jobs: ctx.jobs }, { path: file.path, size: file.size, sha256: file.sha256 });
      // What was seen in it is read from its row: hashes found at processing, or none yet (then
      // only the same bytes count as a duplicate).
      const seen = await ctx.db.selectFrom('images').select(['sha256', 'phash', 'phash_mirror']).where('sha256', '=', stored.sha256).executeTakeFirst();
      const duplicates = await findDuplicates(ctx.db, userId, seen ?? { sha256: stored.sha256, phash: null, phash_mirror: null });
      res.status(201).json({ image: stored.image, duplicates } satisfies ImageUploaded);
    },
  }),
];
