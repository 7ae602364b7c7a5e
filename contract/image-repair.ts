import { z } from 'zod';

// Mending a pin whose image never arrived (docs/image-repair.md). A fetch of its picture by URL that gives up
// for good stores why on the pin (a reason code); the pin's owner — and only they — reads it with
// GET /api/pins/{id}/image-status, and replaces the image with PUT /api/pins/{id} and `imageUrl`.

/**
 * Why a picture fetch gave up: a refusal of the address or of the answer (backend/images/safe-fetch.ts:
 * `http_status:<code>` for a status), of the bytes (backend/errors.ts ImageRefusal), or a failure
 * that lasted through every retry (`timeout`, `network`).
 */
export type FetchFailure = string;

export const ImageStatus = z
  .object({
    /** `stored`: the image is in; `importing`: not yet (its fetch is queued or retrying; the value keeps its first name, scripts read it); `failed`: given up. */
    status: z.enum(['stored', 'importing', 'failed']),
    /** The reason code when `failed`, else null. */
    reason: z.string().nullable(),
    /** What the owner is told, when `failed`. */
    message: z.string().nullable(),
  })
  .meta({ id: 'ImageStatus' });
export type ImageStatus = z.infer<typeof ImageStatus>;

const STATUS_TEXT: Record<number, string> = { 401: 'asks for a login', 403: 'refused to share it', 404: 'does not have it', 410: 'has removed it', 429: 'was too busy', 451: 'may not share it' };

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** The owner's message for a failed fetch of `url`. */
export function fetchFailureMessage(reason: FetchFailure, url: string): string {
  const host = hostOf(url);
  const status = /^http_status:(\d{3})$/.exec(reason);
  if (status) {
    const code = Number(status[1]);
    return `${host} answered ${code}${STATUS_TEXT[code] ? ` (it ${STATUS_TEXT[code]})` : ''}.`;
  }
  switch (reason) {
    case 'unknown_host':
      return `There is no site called ${host}.`;
    case 'blocked_address':
    case 'bad_port':
    case 'bad_scheme':
    case 'bad_url':
      return `Pinboard does not fetch images from ${host}: only public http and https sites on their usual ports.`;
    case 'too_many_redirects':
      return `${host} sent the request on too many times.`;
    case 'too_large':
    case 'too-large':
      return 'The image is larger than 20 MB.';
    case 'timeout':
      return `${host} took too long to answer, every time it was asked.`;
    case 'network':
      return `${host} could not be reached, every time it was asked.`;
    case 'not-an-image':
      return `What ${host} sent is not an image.`;
    case 'empty':
      return `${host} sent an empty file.`;
    case 'damaged':
      return 'The image is damaged or incomplete.';
    case 'too-many-pixels':
      return 'The image has more than 100 megapixels.';
    case 'no_such_file':
      return 'There is no such picture in the demo set.';
    case 'not_stored':
      return 'The uploaded image is no longer stored.';
    default:
      return 'The image could not be imported.';
  }
}
