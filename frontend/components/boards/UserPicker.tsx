import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS } from '../../../contract/limits.ts';
import { searchUsers } from '../../api/users.ts';

type Suggestion = { id: number; username: string };

/** How long typing pauses before the type-ahead asks the server (one call per pause, not per key). */
const SEARCH_DELAY_MS = 200;

type Props = {
  /** Adds the user; resolves when done, rejects with the message to show. */
  onAdd: (username: string) => Promise<void>;
  /** Users not to suggest (already members). */
  exclude: ReadonlySet<number>;
};

/**
 * "Add by username" with a type-ahead: a combobox (ARIA 1.2 pattern) whose listbox lists users
 * whose name starts with what was typed. Arrow keys move through the suggestions, Enter picks one
 * (or adds what was typed), Escape closes the list.
 */
export function UserPicker({ onAdd, exclude }: Props) {
  const [text, setText] = useState('');
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [searching, setSearching] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const listId = useId();
  const inputId = useId();
  const errorId = useId();
  const latest = useRef(0);

  useEffect(() => {
    const prefix = text.trim();
    if (!prefix) {
      setSuggestions([]);
      setSearching(false);
      return;
    }
    const call = ++latest.current;
    setSearching(true);
    const timer = setTimeout(() => {
      searchUsers(prefix)
        .then((users) => {
          if (call !== latest.current) return; // an answer to older typing
          setSuggestions(users.filter((u) => !exclude.has(u.id)));
          setActive(-1);
        })
        .catch((e: unknown) => {
          console.error(e);
          if (call === latest.current) setSuggestions([]);
        })
        .finally(() => {
          if (call === latest.current) setSearching(false);
        });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, exclude]);

  async function add(username: string) {
    const name = username.trim();
    if (!name || busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await onAdd(name);
      setText('');
      setSuggestions([]);
      setOpen(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const picked = open && active >= 0 ? suggestions[active] : undefined;
    void add(picked?.username ?? text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && suggestions.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && suggestions.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1));
    } else if (event.key === 'Escape' && open && suggestions.length) {
      // Closes the list only; a second Escape closes the dialog.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  }

  const showList = open && text.trim() !== '';
  return (
    <form className="user-picker" onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId} className="field__label">
        Add by username
      </label>
      <div className="user-picker__row">
        <input
          id={inputId}
          className="field__input"
          role="combobox"
          aria-expanded={showList && suggestions.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          autoComplete="off"
          maxLength={LIMITS.usernameMax}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setError(undefined);
          }}
          onKeyDown={onKeyDown}
          data-autofocus
        />
        <button type="submit" className="button" disabled={busy || !text.trim()}>
          {busy ? 'Adding…' : 'Add'}
        </button>
      </div>
      {showList ? (
        <ul id={listId} role="listbox" aria-label="Matching users" className="user-picker__list">
          {searching && suggestions.length === 0 ? (
            <li className="user-picker__status" role="presentation">
              Searching…
            </li>
          ) : suggestions.length === 0 ? (
            <li className="user-picker__status" role="presentation">
              No matching users.
            </li>
          ) : (
            suggestions.map((user, i) => (
              <li
                key={user.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={`user-picker__option${i === active ? ' user-picker__option--active' : ''}`}
                // mousedown, not click: the input keeps focus.
                onMouseDown={(e) => {
                  e.preventDefault();
                  void add(user.username);
                }}
              >
                {user.username}
              </li>
            ))
          )}
        </ul>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
