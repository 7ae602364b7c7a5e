import { useEffect, useRef, useState } from 'react';
import type { Pin, Suggestions } from '../../contract/index.ts';
import { SEARCH_LIMITS } from '../../contract/search-rules.ts';
import { fetchSearchPage, fetchSuggestions } from '../api/search.ts';

/** Quiet time after the last keystroke before the type-ahead asks (a fast typist sends one request). */
export const TYPEAHEAD_DELAY_MS = 150;
/** Pins the type-ahead shows under the suggestions. */
export const TYPEAHEAD_PINS = 4;

/** What the type-ahead shows for one query. */
export interface Typeahead extends Suggestions {
  /** The text these answers are for. */
  query: string;
  pins: Pin[];
}

/**
 * The type-ahead's answers for `text` (trimmed), asked TYPEAHEAD_DELAY_MS after it last changed.
 * Answers arrive in any order: only the one for the latest text is kept (the last answer wins), and
 * the previous answer stays on screen until then. Null for blank text.
 */
export function useTypeahead(text: string): Typeahead | null {
  const [answer, setAnswer] = useState<Typeahead | null>(null);
  const latest = useRef(0);
  useEffect(() => {
    const query = text.trim();
    const ticket = ++latest.current;
    if (!query || query.length > SEARCH_LIMITS.query) {
      setAnswer(null);
      return;
    }
    const timer = setTimeout(() => {
      Promise.all([fetchSuggestions(query), fetchSearchPage({ q: query }, { limit: TYPEAHEAD_PINS })])
        .then(([suggestions, page]) => {
          if (ticket === latest.current) setAnswer({ query, tags: suggestions.tags, users: suggestions.users, colors: suggestions.colors, pins: page.pins });
        })
        .catch((error: unknown) => {
          console.error(error);
          if (ticket === latest.current) setAnswer({ query, tags: [], users: [], colors: [], pins: [] });
        });
    }, TYPEAHEAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return answer;
}
