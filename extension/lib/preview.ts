// The confirmation's preview, in the page's picker and in the popup: the very bytes the background
// fetched and will upload (lib/shown-images.ts), shown from an object URL of them, never from a
// second load of the picture's address, which a site could answer with other bytes.
import { ask, isFailure } from './ask.ts';
import { fromBase64 } from './base64.ts';

export interface ShownPreview {
  /** For the save request (`ImageToSave.shown`): the bytes' digest, or null when none were shown. */
  shown: string | null;
  /** An object URL of the bytes (null: none); revoke it when the preview goes. */
  url: string | null;
  /** Why there is no preview. */
  reason: string;
}

export async function loadPreview(src: string, pageUrl: string): Promise<ShownPreview> {
  const answer = await ask({ type: 'preview', src, pageUrl });
  if (isFailure(answer)) return { shown: null, url: null, reason: answer.message };
  if (!answer.preview) return { shown: null, url: null, reason: answer.reason };
  const { digest, type, base64 } = answer.preview;
  const blob = new Blob([fromBase64(base64)], { type });
  return { shown: digest, url: URL.createObjectURL(blob), reason: '' };
}
