import { Link, useSearchParams } from 'react-router';
import { SEARCH_LIMITS } from '../../contract/search-rules.ts';
import { fetchSearchPage } from '../api/search.ts';
import { PagedPinGrid } from '../components/PagedPinGrid.tsx';
import { Empty } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { usePinList } from '../hooks/usePinList.ts';
import { SEARCH_LIST } from './lists.ts';
import './search.css';

export const noMatchText = (query: string) => `No pins match “${query}”.`;

/**
 * `/search?q=`: the pins matching the query, best first, in the home grid's masonry (paged as the
 * reader scrolls; Back returns to the same card). The address is the whole state: reloading or
 * sharing it shows the same search. Pins edited or deleted meanwhile change here live, as on home.
 */
export function SearchPage() {
  const [params] = useSearchParams();
  const query = (params.get('q') ?? '').trim().slice(0, SEARCH_LIMITS.query);
  useDocumentTitle(query ? `${query} - Search` : 'Search');
  if (!query) {
    return (
      <Empty>
        <h1 className="visually-hidden">Search</h1>
        <p>Type something to search for.</p>
        <p>Search the box at the top for pins, #tags and people.</p>
      </Empty>
    );
  }
  return <Results key={query} query={query} />;
}

function Results({ query }: { query: string }) {
  const key = SEARCH_LIST.results(query);
  const list = usePinList(key, (cursor) => fetchSearchPage(query, { cursor }));
  return (
    <>
      <header className="search-page__header">
        <h1>Results for “{query}”</h1>
      </header>
      <PagedPinGrid
        label={`Pins matching ${query}`}
        list={list}
        listKey={key}
        empty={
          <div className="search-empty">
            <p>{noMatchText(query)}</p>
            <p>Check the spelling, use fewer words, or look around instead.</p>
            <Link to="/" className="button button--secondary">
              Back to all pins
            </Link>
          </div>
        }
      />
    </>
  );
}
