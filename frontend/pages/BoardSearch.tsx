import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { SEARCH_LIMITS } from '../../contract/search-rules.ts';
import { searchStatePath } from '../search/search-url.ts';
import './board-search.css';

/**
 * "Search this board" on a board's page (docs/search.md): the words go to the search page with the
 * board as its scope (`/search?q=…&scope=board:<id>`, the address the search page's own scope
 * choice writes), so the results, their filters and Back work as any search's. Without words it
 * opens the search page already scoped to the board.
 */
export function BoardSearch({ boardId }: { boardId: number }) {
  const navigate = useNavigate();
  const [words, setWords] = useState('');
  const id = useId();
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void navigate(searchStatePath({ q: words.trim(), colors: [], scope: `board:${boardId}` }));
  }
  return (
    <form className="board-search" role="search" aria-label="This board" onSubmit={onSubmit}>
      <label htmlFor={id} className="visually-hidden">
        Search this board
      </label>
      <input
        id={id}
        className="field__input board-search__input"
        type="search"
        placeholder="Search this board"
        maxLength={SEARCH_LIMITS.query}
        value={words}
        onChange={(event) => setWords(event.target.value)}
      />
      <button type="submit" className="button button--secondary button--small">
        Search
      </button>
    </form>
  );
}
