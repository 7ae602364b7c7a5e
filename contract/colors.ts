// The named colours a picture can have (docs/images.md "What is seen in a picture"): the fixed list
// search's `color:` filter and the type-ahead offer. Zod-free, for the client.

export const COLOR_NAMES = ['red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink', 'brown', 'black', 'grey', 'white'] as const;
export type ColorName = (typeof COLOR_NAMES)[number];

export function isColorName(word: string): word is ColorName {
  return (COLOR_NAMES as readonly string[]).includes(word);
}
