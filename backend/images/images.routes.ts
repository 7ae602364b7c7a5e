import { IMAGE_LIMITS, ImageUploaded } from '../../contract/images.ts';
import { MSG } from '../../contract/messages.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { storeImage } from './images.service.ts';

export const imageRoutes: ApiRoute[] = [
  route({
    method: 'post',
    path: '/api/images/',
    summary: 'Upload an image (multipart/form-data, the file in the field "file"); answers it stored, with its size, placeholder and thumbnails',
    auth: 'user',
    upload: {
      field: IMAGE_LIMITS.uploadField,
      maxBytes: IMAGE_LIMITS.maxBytes,
      tooLarge: MSG.imageTooLarge,
      missing: MSG.imageMissing,
      types: IMAGE_LIMITS.types,
      description: 'One JPEG, PNG, WebP, GIF or AVIF file (recognised by its bytes, not its name or type), at most 20 MB and 100 megapixels.',
    },
    responses: { 201: { schema: ImageUploaded, description: 'Stored (or already stored: the same bytes are stored once, at the same URLs)' } },
    handler: async ({ ctx, media, res, file }) => {
      // Thumbnails are made before the answer, so its URLs work at once (DESIGN §10).
      const stored = await storeImage({ db: ctx.db, storage: media }, file.bytes);
      res.status(201).json({ image: stored.image } satisfies ImageUploaded);
    },
  }),
];
