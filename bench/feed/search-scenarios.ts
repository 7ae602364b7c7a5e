import { skewedIndex, TAGS, WORDS } from './words.ts';

// The search reads, as people make them: queries drawn from the pins' own vocabulary with the same
// skew (so the common words, which match the most pins, are asked the most), in the shapes a search
// box sees: one word, two words, a misspelt word, a word still being typed; the type-ahead on the
// first letters of a tag; a tag's pins; a random pin's "More like this".

export type SearchScenarioName = 'search' | 'suggest' | 'tag' | 'related';

export interface SearchRead {
  name: SearchScenarioName;
  label: string;
  next: () => string;
}

const pick = (list: readonly string[]) => list[skewedIndex(list.length, Math.random())] as string;
const plainWord = () => {
  // Hyphenated entries are two words to a search box; take a single one.
  for (;;) {
    const word = pick(WORDS);
    if (/^[\p{L}]+$/u.test(word)) return word;
  }
};

/** One letter swapped for its neighbour, dropped or doubled: "coffee" → "cofee". */
function misspell(word: string): string {
  const at = 1 + Math.floor(Math.random() * Math.max(1, word.length - 2));
  const kind = Math.floor(Math.random() * 3);
  if (kind === 0) return word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2);
  if (kind === 1) return word.slice(0, at) + word.slice(at + 1);
  return word.slice(0, at) + (word[at] ?? '') + word.slice(at);
}

export type QueryShape = 'one' | 'two' | 'typo' | 'prefix';

/** The mix of shapes a search box sees: half one word, a quarter two, then misspelt, then half-typed. */
function randomShape(): QueryShape {
  const at = Math.random();
  return at < 0.5 ? 'one' : at < 0.75 ? 'two' : at < 0.9 ? 'typo' : 'prefix';
}

/** A query as typed into the box, of the given shape (else one drawn from the mix). */
export function searchQuery(shape: QueryShape = randomShape()): string {
  if (shape === 'one') return plainWord();
  if (shape === 'two') return `${plainWord()} ${plainWord()}`;
  if (shape === 'typo') return misspell(plainWord().padEnd(4, 's'));
  const word = plainWord();
  return word.slice(0, Math.max(3, Math.ceil(word.length / 2)));
}

const query = (q: string) => encodeURIComponent(q);

export function searchReads(pins: number, page: number): SearchRead[] {
  return [
    { name: 'search', label: 'search, page 1', next: () => `/api/search?q=${query(searchQuery())}&limit=${page}` },
    {
      name: 'suggest',
      label: 'suggest, 1–4 letters',
      next: () => {
        const tag = pick(TAGS);
        return `/api/search/suggest?q=${query([...tag].slice(0, 1 + Math.floor(Math.random() * 4)).join(''))}`;
      },
    },
    { name: 'tag', label: '?tag=, page 1', next: () => `/api/pins/?tag=${query(pick(TAGS))}&limit=${page}` },
    { name: 'related', label: 'related, page 1', next: () => `/api/pins/${1 + Math.floor(Math.random() * pins)}/related?limit=${page}` },
  ];
}
