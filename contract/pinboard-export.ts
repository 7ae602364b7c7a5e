import { z } from 'zod';
import { PIN_VISIBILITIES } from './visibility.ts';

// `pinboard.json`, the heart of the export ZIP (docs/import-export.md). Written by GET /api/export,
// read back by POST /api/imports, which recreates what it lists. `key` names a pin within one file.

export const EXPORT_VERSION = 1;

const text = z.string().max(100_000);

export const ExportedPin = z.object({
  key: z.string().min(1).max(200),
  title: text,
  description: text,
  tags: z.array(z.string().max(200)).max(1000),
  sourceUrl: z.string().max(4096).nullable(),
  createdAt: z.string().max(100),
  /** The stored original inside the ZIP (`images/<sha256>.<ext>`), or null when the pin has none. */
  image: z.string().max(300).nullable(),
  /** The address the pin shows (its stored image's, or a remote one never imported). */
  imageUrl: z.string().max(4096),
  /** Who sees it (docs/who-sees-what.md); absent in exports made before pins had one: public. */
  visibility: z.enum(PIN_VISIBILITIES).optional(),
});
export type ExportedPin = z.infer<typeof ExportedPin>;

export const ExportedBoard = z.object({
  name: text,
  /** The board's pins in board order (most recently added first). */
  pins: z.array(z.string().max(200)),
  /** Collaborators' usernames: an import lists them back as "not re-invited". */
  members: z.array(z.string().max(200)),
});
export type ExportedBoard = z.infer<typeof ExportedBoard>;

export const ExportedComment = z.object({ pin: z.string().max(200), text, createdAt: z.string().max(100) });
export type ExportedComment = z.infer<typeof ExportedComment>;

export const PinboardExport = z.object({
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string().max(100),
  user: z.object({ username: z.string().max(200), email: z.string().max(400) }),
  pins: z.array(ExportedPin),
  boards: z.array(ExportedBoard),
  favorites: z.array(z.string().max(200)),
  comments: z.array(ExportedComment),
});
export type PinboardExport = z.infer<typeof PinboardExport>;
