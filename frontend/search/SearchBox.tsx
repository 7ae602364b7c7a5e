import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SEARCH_LIMITS } from '../../contract/search-rules.ts';
import { CloseIcon, SearchIcon } from './icons.tsx';
import { optionPath, type SearchOption, searchOptions } from './options.ts';
import { SuggestionList } from './SuggestionList.tsx';
import { useTypeahead } from './useTypeahead.ts';
import './search.css';

/** The query a page stands for: /search?q= shows its own; every other page an empty box. */
function queryOf(location: { pathname: string; search: string }): string {
  return location.pathname === '/search' ? (new URLSearchParams(location.search).get('q') ?? '') : '';
}

/**
 * The navigation bar's search box: an ARIA combobox (a text box with a list box of choices) that
 * shows tags, people and pins as you type. Up and Down move through the choices, Enter opens the one
 * chosen (or the results page, /search?q=), Escape closes the list. On narrow screens the bar shows a
 * search button that opens the box over the bar.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const location = useLocation();
  const urlQuery = queryOf(location);
  const [text, setText] = useState(urlQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** Narrow screens: the box is shown over the bar. */
  const [expanded, setExpanded] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;

  // The URL is the state: every navigation (Back included) shows its page's query, list closed.
  useEffect(() => {
    setText(urlQuery);
    setOpen(false);
    setActive(-1);
    setExpanded(false);
  }, [location.key, urlQuery]);

  const answer = useTypeahead(open ? text : '');
  const options = open ? searchOptions(text, answer) : [];
  const listed = options.length > 0;

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function choose(option: SearchOption) {
    close();
    setExpanded(false);
    input.current?.blur();
    void navigate(optionPath(option));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        return;
      }
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current < 0 ? (step > 0 ? 0 : count - 1) : (current + step + count) % count));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = active >= 0 ? options[active] : undefined;
      if (chosen) choose(chosen);
      else if (text.trim()) choose({ kind: 'search', query: text });
    } else if (event.key === 'Escape') {
      // A first Escape closes the list (keeping the text); the next closes the phone's box, or
      // lets the browser clear the text.
      if (listed) {
        event.preventDefault();
        close();
      } else if (expanded) {
        event.preventDefault();
        setExpanded(false);
      }
    }
  }

  // Focus leaving the box (not to one of its own parts) closes the list.
  function onBlur(event: FocusEvent<HTMLDivElement>) {
    if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    close();
    if (!text.trim()) setExpanded(false);
  }

  useEffect(() => {
    if (expanded) input.current?.focus();
  }, [expanded]);

  const suggestions = options.length - 1;
  return (
    <div className={`search${expanded ? ' search--expanded' : ''}`} onBlur={onBlur}>
      <button type="button" className="icon-button search__open" aria-label="Search" onClick={() => setExpanded(true)}>
        <SearchIcon />
      </button>
      <form role="search" className="search__form" noValidate onSubmit={(event) => event.preventDefault()}>
        <label htmlFor={`${id}-input`} className="visually-hidden">
          Search pins
        </label>
        <SearchIcon className="search__icon" />
        <input
          ref={input}
          id={`${id}-input`}
          className="search__input"
          type="search"
          role="combobox"
          aria-expanded={listed}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={listed && active >= 0 ? optionId(active) : undefined}
          placeholder="Search pins, #tags and people"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          maxLength={SEARCH_LIMITS.query}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="icon-button search__close" aria-label="Close search" onClick={() => setExpanded(false)}>
          <CloseIcon />
        </button>
      </form>
      <SuggestionList id={listId} optionId={optionId} options={listed ? options : []} active={active} onChoose={choose} onHover={setActive} />
      <p className="visually-hidden" role="status">
        {listed && answer ? `${suggestions} ${suggestions === 1 ? 'suggestion' : 'suggestions'}` : ''}
      </p>
    </div>
  );
}
