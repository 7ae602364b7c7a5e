import type { ColorName } from '../../contract/colors.ts';
import type { LexemeShares } from './frequency.ts';
import type { ShareEstimate } from './window.ts';

// The share of pins a search's tsquery matches, estimated from how common each of its lexemes is
// (./frequency.ts), to choose where its candidates are looked for (./window.ts). Postgres' own
// estimate (EXPLAIN) takes the terms of an `&` as independent, so `living living`
// ('live' & ('live' | 'living':*)) was put at 0.3 % of the pins for a word held by 5 %, and the
// search read all 50,000 matches' heap pages. Here a repeated term counts once, and a term or'ed
// with one already required adds nothing.

type Node = { kind: 'lexeme'; text: string; prefix: boolean } | { kind: 'and' | 'or'; items: Node[] } | { kind: 'not'; item: Node };

/** Tokens of tsquery text as Postgres writes it: 'lexeme' (quotes doubled), :* and weights, & | ! <N> ( ). */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /'(?:[^']|'')*'(?::[*A-Da-d]+)?|<\d*-?>|[&|!()]/gy;
  let at = 0;
  while (at < text.length) {
    if (/\s/.test(text[at] as string)) {
      at += 1;
      continue;
    }
    pattern.lastIndex = at;
    const found = pattern.exec(text);
    if (!found) throw new Error(`unexpected tsquery text at ${at}`);
    tokens.push(found[0]);
    at = pattern.lastIndex;
  }
  return tokens;
}

/** Parses tsquery text: | binds loosest, then &, then <N> (read as &), then !. */
export function parseTsquery(text: string): Node | null {
  const tokens = tokenize(text);
  let i = 0;
  const list = (kind: 'and' | 'or', next: () => Node, operator: (token: string | undefined) => boolean): Node => {
    const items = [next()];
    while (operator(tokens[i])) {
      i += 1;
      items.push(next());
    }
    return items.length === 1 ? (items[0] as Node) : { kind, items };
  };
  const unary = (): Node => {
    const token = tokens[i++];
    if (token === '!') return { kind: 'not', item: unary() };
    if (token === '(') {
      const inner = or();
      if (tokens[i++] !== ')') throw new Error('unbalanced tsquery');
      return inner;
    }
    if (!token?.startsWith("'")) throw new Error('expected a lexeme');
    const close = token.lastIndexOf("'");
    return { kind: 'lexeme', text: token.slice(1, close).replaceAll("''", "'"), prefix: token.slice(close).includes('*') };
  };
  const phrase = () => list('and', unary, (token) => token?.startsWith('<') ?? false);
  const and = () => list('and', phrase, (token) => token === '&');
  const or = (): Node => list('or', and, (token) => token === '|');
  if (tokens.length === 0) return null;
  const node = or();
  if (i !== tokens.length) throw new Error('trailing tsquery text');
  return node;
}

const key = (node: Node): string =>
  node.kind === 'lexeme' ? `${node.text}${node.prefix ? ':*' : ''}` : node.kind === 'not' ? `!${key(node.item)}` : `${node.kind}(${node.items.map(key).sort().join(',')})`;

/** `likely`: and'ed terms taken as independent; `most`: the rarest of them (correlated terms). */
function share(node: Node, stats: LexemeShares): ShareEstimate {
  switch (node.kind) {
    case 'lexeme': {
      // A lexeme not in the list is rarer than its rarest: half that likely, as the planner guesses.
      if (!node.prefix) {
        const known = stats.shares.get(node.text);
        return known === undefined ? { likely: stats.floor / 2, most: stats.floor } : { likely: known, most: known };
      }
      let sum = 0;
      for (const [lexeme, value] of stats.shares) if (lexeme.startsWith(node.text)) sum += value;
      // Rarer words may start so too: the list's rarest share once more, at most.
      return { likely: sum > 0 ? Math.min(1, sum) : stats.floor / 2, most: Math.min(1, sum + stats.floor) };
    }
    case 'not': {
      const inner = share(node.item, stats);
      return { likely: 1 - inner.likely, most: 1 };
    }
    case 'or': {
      const items = node.items.map((item) => share(item, stats));
      return {
        likely: 1 - items.reduce((rest, item) => rest * (1 - item.likely), 1),
        most: Math.min(
          1,
          items.reduce((sum, item) => sum + item.most, 0),
        ),
      };
    }
    case 'and': {
      // Each term once; an `or` one of whose terms is required anyway holds for every match.
      const required = new Map(node.items.map((item) => [key(item), item]));
      const kept = [...required.values()].filter((item) => item.kind !== 'or' || !item.items.some((inner) => required.has(key(inner)))).map((item) => share(item, stats));
      return { likely: kept.reduce((product, item) => product * item.likely, 1), most: Math.min(...kept.map((item) => item.most)) };
    }
  }
}

/** The estimated share of pins (0–1) matching every one of `tsqueries` (tsquery text), with `colors`. */
export function estimatedShare(tsqueries: string[], colors: ColorName[], stats: LexemeShares): ShareEstimate {
  const parsed = parseTsquery(tsqueries.map((text) => `(${text})`).join(' & '));
  const words = parsed ? share(parsed, stats) : { likely: 1, most: 1 };
  // Colours never sampled (no statistics yet) are counted as held by every pin: the window is then
  // sized for more matches than it may hold, and widened.
  const colorShares = colors.map((color) => stats.colors.get(color) ?? (stats.colorFloor === null ? 1 : stats.colorFloor));
  return {
    likely: colorShares.reduce((product, value) => product * value, words.likely),
    most: Math.min(words.most, ...colorShares),
  };
}
