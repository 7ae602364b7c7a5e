import { z } from 'zod';
import { normalizeSourceUrl, SOURCE_URL_MAX, SOURCE_URL_MSG } from './source-url-rules.ts';

// The page a pin's image was saved from (docs/tokens-and-capture.md): its fields' schemas. The plain
// functions, which the client uses too, are in source-url-rules.ts.

/** A source page, normalised; anything else (blank included) is an issue. */
function toSourceUrl(value: string, ctx: z.RefinementCtx): string {
  const normalized = normalizeSourceUrl(value);
  if (normalized !== null) return normalized;
  ctx.addIssue({ code: 'custom', message: SOURCE_URL_MSG.invalid });
  return z.NEVER;
}

const sourceText = () => z.string({ error: SOURCE_URL_MSG.invalid }).trim().max(SOURCE_URL_MAX, { error: SOURCE_URL_MSG.tooLong, abort: true });

/** A required source page (GET /api/pins/lookup?sourceUrl=), normalised. */
export const sourceUrlField = sourceText().transform(toSourceUrl);

/** An optional source page (POST /api/pins/): absent, null or blank mean none. */
export const optionalSourceUrl = sourceText()
  .transform((value, ctx) => (value === '' ? null : toSourceUrl(value, ctx)))
  .nullish()
  .transform((value) => value ?? null);
