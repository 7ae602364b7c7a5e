import type { DuplicateGroups, ImageUploaded, Merged, MergeUndone } from '../../contract/duplicates.ts';
import { ApiError, isCsrfRefusal, refreshCsrfToken, toErrorBody } from './client.ts';
import { call } from './endpoint.ts';
import { IMAGE_MSG } from './images.ts';
import { sendFile, type UploadOptions } from './upload.ts';

// Duplicates among the caller's own pins (docs/duplicates.md).

/** A page of groups of look-alike pins; a page may be empty and still have a next one. */
export function fetchDuplicateGroups(cursor: string | null): Promise<DuplicateGroups> {
  return call('GET /api/duplicates', { query: { cursor } });
}

export function mergePins(keep: number, merge: number[]): Promise<Merged> {
  return call('POST /api/duplicates/merge', { body: { keep, merge } });
}

export function undoMerge(mergeId: number): Promise<MergeUndone> {
  return call('POST /api/duplicates/merge/undo', { body: { mergeId } });
}

/**
 * Uploads one image as ./images.ts's uploadImage does (the same refusals and messages), and
 * resolves with the whole answer: the image and the caller's pins that already show it.
 */
export async function uploadImageWithDuplicates(file: File, options: UploadOptions = {}): Promise<ImageUploaded> {
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
