// What a search box's text asks for (docs/search.md), read the way web search engines read it:
// words (a pin must match each), "quoted phrases" (those words in that order), -exclusions (a word
// or a phrase the pin must not have) and `or` between two terms (either will do). Nothing here is
// ever spliced into SQL or tsquery syntax: each word or phrase reaches Postgres as a bound value
// (plainto_tsquery / phraseto_tsquery), so quotes, operators and any other characters are just text.
// `color:NAME` (or `colour:NAME`) with NAME one of contract/colors.ts is a filter, not a word; any
// other `color:` word is an ordinary word.
import { COLOR_NAMES, type ColorName, isColorName } from '../../contract/colors.ts';
import { colorFilterName } from '../../contract/search-rules.ts';

/** A word or a phrase of the query. */
export interface Term {
  kind: 'word' | 'phrase';
  text: string;
}

/** One condition a pin must meet: any of its terms (more than one when joined by `or`). */
export interface Clause {
  anyOf: Term[];
}

export interface ParsedQuery {
  /** Conditions a pin must meet, all of them. */
  clauses: Clause[];
  /** Terms a pin must not have. */
  exclusions: Term[];
  /** The last word typed (a prefix too: the reader may still be typing it), if it is a plain word. */
  lastWord: Term | null;
  /** Colours a pin must all have (`color:NAME`), each once, in COLOR_NAMES order. */
  colors: ColorName[];
}

/** Control and format characters (NUL, bidi overrides, zero-width joiners) read as spaces. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const SPACE = /\s/u;

interface Token {
  term: Term;
  negated: boolean;
  /** The bare word `or` (any case): joins the terms either side. */
  or: boolean;
}

function tokenize(input: string): Token[] {
  const text = input.normalize('NFKC').replace(INVISIBLE, ' ');
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (SPACE.test(text[i] as string)) {
      i += 1;
      continue;
    }
    // A minus right before a word or a phrase excludes it; a minus alone is nothing.
    let negated = false;
    if (text[i] === '-' && i + 1 < text.length && !SPACE.test(text[i + 1] as string)) {
      negated = true;
      i += 1;
    }
    if (text[i] === '"') {
      // A phrase runs to the next quote, or to the end when it is not closed.
      const end = text.indexOf('"', i + 1);
      const phrase = text.slice(i + 1, end === -1 ? text.length : end).trim();
      i = end === -1 ? text.length : end + 1;
      if (phrase) tokens.push({ term: { kind: 'phrase', text: phrase }, negated, or: false });
      continue;
    }
    let end = i;
    while (end < text.length && !SPACE.test(text[end] as string) && text[end] !== '"') end += 1;
    const word = text.slice(i, end);
    i = end;
    if (!word) continue;
    const or = !negated && word.toLowerCase() === 'or';
    tokens.push({ term: { kind: 'word', text: word }, negated, or });
  }
  return tokens;
}

const sameTerm = (a: Term | undefined, b: Term) => a !== undefined && a.kind === b.kind && a.text.toLowerCase() === b.text.toLowerCase();

/** Reads the search box's text; an empty result (no clauses) means the query asks for nothing. */
export function parseQuery(input: string): ParsedQuery {
  const clauses: Clause[] = [];
  const exclusions: Term[] = [];
  const colors = new Set<ColorName>();
  let joinNext = false;
  let last: Token | null = null;
  for (const token of tokenize(input)) {
    const color = !token.negated && token.term.kind === 'word' ? colorFilterName(token.term.text) : null;
    if (color !== null && isColorName(color)) {
      // A filter, not a term: it joins nothing by `or`, and is no prefix being typed.
      colors.add(color);
      last = null;
      continue;
    }
    if (token.or) {
      // `or` joins two positive terms; leading, trailing or doubled it joins nothing.
      joinNext = clauses.length > 0;
      continue;
    }
    last = token;
    if (token.negated) {
      // An exclusion is never one side of an `or`: "a or -b" would match nearly every pin.
      exclusions.push(token.term);
      joinNext = false;
      continue;
    }
    const previous = clauses.at(-1);
    // A term already asked for alone adds nothing ("living living"), and Postgres would take the
    // two for independent: its estimate of the matches (./window.ts) would be far too low.
    const same = joinNext ? undefined : clauses.find((clause) => clause.anyOf.length === 1 && sameTerm(clause.anyOf[0], token.term));
    if (same) last = { ...token, term: same.anyOf[0] as Term };
    else if (joinNext && previous) previous.anyOf.push(token.term);
    else clauses.push({ anyOf: [token.term] });
    joinNext = false;
  }
  const lastWord = last && !last.negated && last.term.kind === 'word' ? last.term : null;
  return { clauses, exclusions, lastWord, colors: COLOR_NAMES.filter((name) => colors.has(name)) };
}

/** Letters (with their marks) and digits only: a word that can be a prefix or have look-alikes. */
const PLAIN_WORD = /^[\p{L}\p{M}\p{N}]+$/u;

/** The word lower-cased, without punctuation around it; null unless what is left is a plain word. */
export function plainWord(text: string): string | null {
  const word = text.toLowerCase().replace(/^[^\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+$/gu, '');
  return PLAIN_WORD.test(word) ? word : null;
}
