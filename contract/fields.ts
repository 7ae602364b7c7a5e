import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';
import { hasNulCharacter, isAllowedImageUrl } from './urls.ts';

const noNul = (label: string) => ({ error: `${label} contains a character that is not allowed.` });

// Building blocks for request schemas. Every rule carries the exact user-facing message, so the
// server's 400 answers read like the client's own validation.

/** A required string: missing, non-string or blank all give `required`; longer than `max` is refused. */
export function requiredText(required: string, max: number, label: string) {
  return (
    z
      .string({ error: required })
      .trim()
      // abort: a blank value reports only "required", not also the format rules after it.
      .min(1, { error: required, abort: true })
      .max(max, { error: `${label} must be at most ${max} characters.`, abort: true })
      .refine((value) => !hasNulCharacter(value), noNul(label))
  );
}

/** An optional string (absent or null mean empty), trimmed and bounded. */
export function optionalText(max: number, label: string) {
  return z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters.` })
    .refine((value) => !hasNulCharacter(value), noNul(label))
    .nullish()
    .transform((value) => value ?? '');
}

export const imageUrl = requiredText(MSG.imageUrlRequired, LIMITS.imageUrl, 'Image URL').refine(isAllowedImageUrl, {
  error: MSG.imageUrlInvalid,
});

/** A row id in a JSON body: a positive integer that fits the `integer` column. */
export function idField(label: string) {
  return z
    .number({ error: `${label} must be a positive whole number.` })
    .int({ error: `${label} must be a positive whole number.` })
    .min(1, { error: `${label} must be a positive whole number.` })
    .max(LIMITS.maxId, { error: `${label} is out of range.` });
}

/** A row id in a path: digits only, no sign, no leading zeros games, within range. */
export const pathId = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, { error: MSG.invalidId })
  .transform(Number)
  .refine((n) => n <= LIMITS.maxId, { error: MSG.invalidId });

export const isoTimestamp = z.string().meta({ format: 'date-time' });
