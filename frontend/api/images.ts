// Image upload (docs/images.md): POST /api/images/ as multipart/form-data, the file in the field `file`.
// Sent with XMLHttpRequest rather than fetch, because only XHR reports upload progress. Everything
// else is as for the other calls (./client.ts): cookies, the anti-forgery header, the error shape.
import type { ImageUploaded } from '../../contract/duplicates.ts';
import type { StoredImage } from '../../contract/images.ts';
import { IMAGE_LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { ApiError, isCsrfRefusal, refreshCsrfToken, toErrorBody } from './client.ts';
import { sendFile, type UploadOptions } from './upload.ts';

/** The largest file the server takes (docs/images.md: 20 MB). Checked before uploading, too. */
export const MAX_IMAGE_BYTES = IMAGE_LIMITS.maxBytes;

// The server's texts for what the client checks itself (issue #15), so both say the same.
export const IMAGE_MSG = { notAnImage: MSG.imageNotAnImage, tooLarge: MSG.imageTooLarge } as const;

/** The formats the server recognises (by their bytes); the picker offers these. */
export const IMAGE_TYPES = IMAGE_LIMITS.types;
const IMAGE_EXTENSIONS = /\.(jpe?g|png|webp|gif|avif)$/i;

/**
 * The client's own checks of a chosen file, before any byte is sent: its message, or null. The
 * server decides by the file's bytes; a type the browser could not name (empty) is let through when
 * the name looks like an image, for the server to judge.
 */
export function checkImageFile(file: File): string | null {
  const looksLikeImage = file.type ? file.type.startsWith('image/') : IMAGE_EXTENSIONS.test(file.name);
  if (!looksLikeImage) return IMAGE_MSG.notAnImage;
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_MSG.tooLarge;
  return null;
}

export type { UploadOptions, UploadProgress } from './upload.ts';

/**
 * Uploads one image and resolves with the whole answer: the image as stored (its `url` is for the
 * pin's `imageUrl`) and the caller's pins that already show it (docs/duplicates.md). Rejects with
 * ApiError for a refusal (the server's message; a 413 that carried none, from a proxy in front,
 * gets the size message), status 0 when the server could not be reached, or an AbortError when
 * `signal` aborted it.
 */
export async function uploadImageAndDuplicates(file: File, options: UploadOptions = {}): Promise<ImageUploaded> {
  let answer = await sendFile('POST /api/images/', file, options);
  if (isCsrfRefusal(answer.status, answer.raw)) {
    await refreshCsrfToken();
    answer = await sendFile('POST /api/images/', file, options);
  }
  const { status, raw } = answer;
  if (status >= 200 && status < 300) {
    const uploaded = raw as Partial<ImageUploaded> | undefined;
    if (uploaded?.image && typeof uploaded.image.url === 'string') return { image: uploaded.image, duplicates: Array.isArray(uploaded.duplicates) ? uploaded.duplicates : [] };
    throw new ApiError(status, toErrorBody(status, undefined));
  }
  const body = toErrorBody(status, raw);
  if (status === 413 && !(raw && typeof raw === 'object' && 'message' in raw)) {
    body.message = IMAGE_MSG.tooLarge;
    body.errors = [IMAGE_MSG.tooLarge];
  }
  throw new ApiError(status, body);
}

/** The image alone, for callers that do not warn of duplicates. */
export async function uploadImage(file: File, options: UploadOptions = {}): Promise<StoredImage> {
  return (await uploadImageAndDuplicates(file, options)).image;
}

export { isAbort } from './upload.ts';
