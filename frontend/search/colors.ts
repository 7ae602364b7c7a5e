import type { ColorName } from '../../contract/colors.ts';

// What each named colour looks like on a swatch (a chip, a type-ahead choice). The names are the
// accessible labels; the fill only shows them.
export const SWATCH: Record<ColorName, string> = {
  red: '#d93025',
  orange: '#f28c28',
  yellow: '#f6d32d',
  green: '#3c9a4b',
  teal: '#1a9e9a',
  blue: '#2f6fdb',
  purple: '#8549c6',
  pink: '#ee7fb2',
  brown: '#8b5a2b',
  black: '#1d1d1d',
  grey: '#9a9a9a',
  white: '#ffffff',
};

export const colorLabel = (color: ColorName) => color.charAt(0).toUpperCase() + color.slice(1);
