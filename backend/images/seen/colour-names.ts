import type { ColorName } from '../../../contract/colors.ts';
import { chromaOf, distance, type Lab, oklabOfHex } from './oklab.ts';

// Names for a palette's colours, from the fixed list of contract/colors.ts (what search's `color:`
// filter offers). Greys are told apart by lightness alone: below a chroma that reads as colourless;
// the rest take the name of the nearest reference colour in OKLab, each name having several
// (light, vivid, dark) so that navy is blue and tan is brown. Brown is no hue of its own: it is the
// dark, muted reds, oranges and yellows, which its references cover.

/** Below this OKLab chroma a colour reads as black, grey or white. */
const GREY_CHROMA = 0.04;
/** Lightness bounds of black and white among the colourless. */
const BLACK_BELOW = 0.3;
const WHITE_ABOVE = 0.88;
const NEARLY_BLACK = 0.22;
const NEARLY_WHITE = 0.94;

/** A palette colour is named only when it covers at least this share of the picture. */
export const NAMED_SHARE = 0.1;

const REFERENCES: Record<Exclude<ColorName, 'black' | 'grey' | 'white'>, string[]> = {
  red: ['#e53935', '#c62828', '#8b1a1a', '#ff5252'],
  orange: ['#fb8c00', '#ef6c00', '#ffb74d', '#ff7043'],
  yellow: ['#fdd835', '#fff176', '#fbc02d', '#e6c84f'],
  green: ['#43a047', '#1b5e20', '#a5d6a7', '#7cb342', '#556b2f', '#c0ca33'],
  teal: ['#00897b', '#26a69a', '#004d40', '#80cbc4', '#00acc1'],
  blue: ['#1e88e5', '#0d47a1', '#90caf9', '#1a237e', '#4fc3f7', '#5c6bc0'],
  purple: ['#8e24aa', '#4a148c', '#ce93d8', '#7e57c2', '#b39ddb'],
  pink: ['#ec407a', '#f48fb1', '#f8bbd0', '#ad1457', '#ff80ab'],
  brown: ['#795548', '#4e342e', '#8d6e63', '#a0522d', '#6d4c41', '#c19a6b', '#3e2723', '#8b6914'],
};

const REFERENCE_LABS = Object.entries(REFERENCES).flatMap(([name, hexes]) => hexes.map((hex) => ({ name: name as ColorName, lab: oklabOfHex(hex) })));

export function colourNameOf(colour: Lab): ColorName {
  const chroma = chromaOf(colour);
  // Near the ends of lightness a tint hardly shows: a very dark navy is black, a cream page white.
  if (chroma < GREY_CHROMA || (colour.l < NEARLY_BLACK && chroma < 2 * GREY_CHROMA) || (colour.l > NEARLY_WHITE && chroma < 1.5 * GREY_CHROMA)) {
    return colour.l < BLACK_BELOW ? 'black' : colour.l > WHITE_ABOVE ? 'white' : 'grey';
  }
  let best = REFERENCE_LABS[0] as { name: ColorName; lab: Lab };
  for (const reference of REFERENCE_LABS) if (distance(colour, reference.lab) < distance(colour, best.lab)) best = reference;
  return best.name;
}

/** The names of a palette's colours that cover a meaningful share of the picture, largest first, each once. */
export function colourNamesOf(palette: ReadonlyArray<{ hex: string; share: number }>): ColorName[] {
  const names: ColorName[] = [];
  for (const { hex, share } of [...palette].sort((x, y) => y.share - x.share)) {
    if (share < NAMED_SHARE) continue;
    const name = colourNameOf(oklabOfHex(hex));
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
