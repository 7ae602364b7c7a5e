import { COLOR_NAMES, type ColorName } from '../../contract/colors.ts';
import { SEARCH_LIMITS } from '../../contract/search-rules.ts';

// The search page's address is its whole state (reload, share, Back): `q`, any `color` (repeated:
// a pin must have every one) and `scope` (mine, favorites or board:<id>). Unknown colours and
// scopes in an address are dropped rather than sent (the server would refuse them).

export interface SearchState {
  q: string;
  colors: ColorName[];
  scope: string | null;
}

const SCOPE = /^(mine|favorites|board:[1-9][0-9]{0,9})$/;

export function readSearchState(params: URLSearchParams): SearchState {
  const asked = new Set(params.getAll('color').map((name) => name.trim().toLowerCase()));
  const scope = params.get('scope');
  return {
    q: (params.get('q') ?? '').trim().slice(0, SEARCH_LIMITS.query),
    colors: COLOR_NAMES.filter((name) => asked.has(name)),
    scope: scope !== null && SCOPE.test(scope) ? scope : null,
  };
}

/** `/search?…` for a state: q first, then the colours, then the scope. */
export function searchStatePath(state: SearchState): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  for (const color of state.colors) params.append('color', color);
  if (state.scope) params.set('scope', state.scope);
  return `/search?${params.toString()}`;
}

export function toggleColor(state: SearchState, color: ColorName): SearchState {
  const colors = state.colors.includes(color) ? state.colors.filter((name) => name !== color) : [...state.colors, color];
  return { ...state, colors: COLOR_NAMES.filter((name) => colors.includes(name)) };
}

/** The typed text with its last word (being typed) replaced by `color:NAME`. */
export function withColorFilter(text: string, color: ColorName): string {
  const words = text.trim().split(/\s+/u);
  words.pop();
  return [...words, `color:${color}`].join(' ');
}

/** Whether there is anything to search for: words, or colours alone. */
export const hasSearch = (state: SearchState) => state.q.length > 0 || state.colors.length > 0;
