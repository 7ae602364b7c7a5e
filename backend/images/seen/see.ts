import type { Sharp } from 'sharp';
import type { ColorName } from '../../../contract/colors.ts';
import { colourNamesOf } from './colour-names.ts';
import { type PaletteEntry, paletteOf } from './palette.ts';
import { phashOf } from './phash.ts';

// What is seen in a picture at processing (docs/images.md "What is seen in a picture"): its
// perceptual hashes, palette and colour names, from pixels already decoded (process.ts gives the
// largest thumbnail's; the backfill, the stored 736 px thumbnail). The text is read apart, later
// (read-text.ts): it takes much longer.

export interface SeenFacts {
  /** Signed 64-bit, as Postgres' bigint holds it. */
  phash: bigint;
  phashMirror: bigint;
  palette: PaletteEntry[];
  colors: ColorName[];
}

/** `image` makes a new pipeline of the same picture each call (a sharp pipeline runs once). */
export async function seePicture(image: () => Sharp): Promise<SeenFacts> {
  const [hashes, palette] = await Promise.all([phashOf(image()), paletteOf(image())]);
  return { phash: hashes.phash, phashMirror: hashes.mirror, palette, colors: colourNamesOf(palette) };
}

/** The images row's columns for what was seen (seen_at: now). */
export function seenColumns(facts: SeenFacts): { phash: string; phash_mirror: string; palette: string; colors: string[]; seen_at: Date } {
  return { phash: facts.phash.toString(), phash_mirror: facts.phashMirror.toString(), palette: JSON.stringify(facts.palette), colors: facts.colors, seen_at: new Date() };
}
