import { Link, useParams } from 'react-router';
import { normalizeTag } from '../../contract/tag-rules.ts';
import { fetchPinPage } from '../api/pins.ts';
import { NotFound } from '../components/ErrorPage.tsx';
import { PagedPinGrid } from '../components/PagedPinGrid.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { usePinList } from '../hooks/usePinList.ts';
import { SEARCH_LIST } from './lists.ts';
import './search.css';

/** `/tags/:tag`: the pins whose description carries #tag, newest first, paged and live like every grid. */
export function TagPage() {
  const tag = normalizeTag(useParams().tag ?? '');
  useDocumentTitle(tag ? `#${tag}` : 'Tag not found');
  if (tag === null) return <NotFound title="Tag not found" text="A tag is made of letters and digits, like #sunset." />;
  return <TagPins key={tag} tag={tag} />;
}

function TagPins({ tag }: { tag: string }) {
  const key = SEARCH_LIST.tag(tag);
  const list = usePinList(key, (cursor) => fetchPinPage({ tag, cursor }));
  return (
    <>
      <header className="search-page__header">
        <h1>#{tag}</h1>
        <p className="search-page__hint">Pins tagged #{tag}, newest first</p>
      </header>
      <PagedPinGrid
        label={`Pins tagged ${tag}`}
        list={list}
        listKey={key}
        empty={
          <div className="search-empty">
            <p>No pins are tagged #{tag} yet.</p>
            <Link to="/" className="button button--secondary">
              Back to all pins
            </Link>
          </div>
        }
      />
    </>
  );
}
