import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { fetchSearchPage } from '../api/search.ts';
import { PagedPinGrid } from '../components/PagedPinGrid.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { usePinList } from '../hooks/usePinList.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { SEARCH_LIST } from './lists.ts';
import { ColorChips, ScopeSelect, scopeChoices } from './SearchFilters.tsx';
import { hasSearch, readSearchState, type SearchState, searchStatePath, toggleColor } from './search-url.ts';
import './search.css';

export const noMatchText = (query: string) => `No pins match “${query}”.`;

/** Whether the first page of a list widened a misspelt word: kept beside the store's lists, so Back shows it again. */
const widenedLists = new Map<string, boolean>();

/** What the search asks for, in words: the query, or the colours alone. */
function searchTitle(state: SearchState): string {
  const colors = state.colors.length ? `${state.colors.join(' and ')} pictures` : '';
  return [state.q, colors].filter(Boolean).join(' · ');
}

/**
 * `/search?q=&color=&scope=`: the pins matching the query, best first (a colour alone: newest
 * first), in the home grid's masonry (paged as the reader scrolls; Back returns to the same card),
 * with colour chips and where to look above. The address is the whole state: reloading or sharing
 * it shows the same search. Pins edited or deleted meanwhile change here live, as on home.
 */
export function SearchPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signedIn = useAtomValue(sessionUserAtom) !== null;
  const state = readSearchState(params);
  const title = searchTitle(state);
  useDocumentTitle(title ? `${title} - Search` : 'Search');
  const go = (next: SearchState) => void navigate(searchStatePath(next));
  const key = SEARCH_LIST.results(searchStatePath(state));
  return (
    <>
      <header className="search-page__header">
        <h1>{state.q ? `Results for “${state.q}”` : state.colors.length ? `Pins in ${state.colors.join(' and ')}` : 'Search'}</h1>
        <div className="search-page__filters">
          <ScopeSelect choices={scopeChoices(signedIn, state.scope)} value={state.scope} onChange={(scope) => go({ ...state, scope })} />
          <ColorChips chosen={state.colors} onToggle={(color) => go(toggleColor(state, color))} />
        </div>
      </header>
      {hasSearch(state) ? (
        <Results key={key} listKey={key} state={state} title={title} />
      ) : (
        <div className="search-empty">
          <p>Type something to search for, or pick a colour.</p>
          <p>Search the box at the top for pins, #tags and people.</p>
        </div>
      )}
    </>
  );
}

function Results({ listKey, state, title }: { listKey: string; state: SearchState; title: string }) {
  const [widened, setWidened] = useState(widenedLists.get(listKey) ?? false);
  const list = usePinList(listKey, async (cursor) => {
    const page = await fetchSearchPage(state, { cursor });
    if (cursor === null) {
      widenedLists.set(listKey, page.widened);
      setWidened(page.widened);
    }
    return page;
  });
  return (
    <>
      {widened && (
        <p className="search-page__widened" role="status">
          Showing results for words like “{state.q}”. <span className="search-page__hint">No pin uses a word as typed, so similar words were searched.</span>
        </p>
      )}
      <PagedPinGrid
        label={`Pins matching ${title}`}
        list={list}
        listKey={listKey}
        empty={
          <div className="search-empty">
            <p>{noMatchText(title)}</p>
            <p>Check the spelling, use fewer words or colours, or look around instead.</p>
            <Link to="/" className="button button--secondary">
              Back to all pins
            </Link>
          </div>
        }
      />
    </>
  );
}
