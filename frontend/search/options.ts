import type { ColorName, Pin } from '../../contract/index.ts';
import { searchStatePath, withColorFilter } from './search-url.ts';
import type { Typeahead } from './useTypeahead.ts';

// The search box's choices and where each leads: the URL is the state, so a choice is a path.

export type SearchOption =
  | { kind: 'search'; query: string }
  | { kind: 'tag'; tag: string; count: number }
  | { kind: 'user'; id: number; username: string }
  /** A colour: searches the text with its last word replaced by `color:NAME`. */
  | { kind: 'color'; color: ColorName; query: string }
  | { kind: 'pin'; pin: Pin };

export const searchPath = (query: string) => `/search?q=${encodeURIComponent(query.trim())}`;
export const tagPath = (tag: string) => `/tags/${encodeURIComponent(tag)}`;
export const userPath = (username: string) => `/users/${encodeURIComponent(username)}`;

export function optionPath(option: SearchOption): string {
  switch (option.kind) {
    case 'search':
      return searchPath(option.query);
    case 'tag':
      return tagPath(option.tag);
    case 'user':
      return userPath(option.username);
    case 'color':
      return searchStatePath({ q: option.query, colors: [], scope: null });
    case 'pin':
      return `/pins/${option.pin.id}`;
  }
}

/** The choices for the text in the box: searching it first, then the type-ahead's latest answer. */
export function searchOptions(text: string, answer: Typeahead | null): SearchOption[] {
  const query = text.trim();
  if (!query) return [];
  return [
    { kind: 'search', query },
    ...(answer?.tags ?? []).map((t): SearchOption => ({ kind: 'tag', tag: t.tag, count: t.count })),
    ...(answer?.users ?? []).map((u): SearchOption => ({ kind: 'user', id: u.id, username: u.username })),
    ...(answer?.colors ?? []).map((color): SearchOption => ({ kind: 'color', color, query: withColorFilter(query, color) })),
    ...(answer?.pins ?? []).map((pin): SearchOption => ({ kind: 'pin', pin })),
  ];
}
