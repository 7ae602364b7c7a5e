import type { ReactNode } from 'react';
import { PinImage } from '../components/PinImage.tsx';
import { colorLabel, SWATCH } from './colors.ts';
import { SearchIcon, TagIcon } from './icons.tsx';
import type { SearchOption } from './options.ts';

interface Props {
  id: string;
  optionId: (index: number) => string;
  /** The choices, in keyboard order (none: the list is hidden). */
  options: SearchOption[];
  active: number;
  onChoose: (option: SearchOption) => void;
  onHover: (index: number) => void;
}

const GROUPS: Array<{ kind: SearchOption['kind']; title: string }> = [
  { kind: 'tag', title: 'Tags' },
  { kind: 'user', title: 'People' },
  { kind: 'color', title: 'Colors' },
  { kind: 'pin', title: 'Pins' },
];

function content(option: SearchOption): ReactNode {
  switch (option.kind) {
    case 'search':
      return (
        <>
          <SearchIcon className="suggestion__icon" />
          <span className="suggestion__text">
            Search for “<strong>{option.query}</strong>”
          </span>
        </>
      );
    case 'tag':
      return (
        <>
          <TagIcon className="suggestion__icon" />
          <span className="suggestion__text">#{option.tag}</span>
          <span className="suggestion__meta">
            {option.count} {option.count === 1 ? 'pin' : 'pins'}
          </span>
        </>
      );
    case 'user':
      return (
        <>
          <span className="suggestion__avatar" aria-hidden="true">
            {option.username.slice(0, 1).toUpperCase()}
          </span>
          <span className="suggestion__text">{option.username}</span>
        </>
      );
    case 'color':
      return (
        <>
          <span className="swatch suggestion__swatch" style={{ background: SWATCH[option.color] }} aria-hidden="true" />
          <span className="suggestion__text">{colorLabel(option.color)}</span>
          <span className="suggestion__meta">Pictures with {option.color}</span>
        </>
      );
    case 'pin':
      return (
        <>
          <span className="suggestion__thumb">
            <PinImage src={option.pin.image_url} image={option.pin.image} sizes="48px" aspect={1} alt="" />
          </span>
          <span className="suggestion__text">{option.pin.title}</span>
          <span className="suggestion__meta suggestion__meta--author">{option.pin.user.username}</span>
        </>
      );
  }
}

/**
 * The search box's list box: searching the text first, then tags, people, colours and pins, each group
 * named. Options are chosen with a click or from the keyboard (the box keeps focus: the active
 * option is its aria-activedescendant); a press never takes focus from the box.
 */
export function SuggestionList({ id, optionId, options, active, onChoose, onHover }: Props) {
  const option = (choice: SearchOption, index: number) => (
    <div
      key={optionId(index)}
      id={optionId(index)}
      role="option"
      aria-selected={index === active}
      className={`suggestion${index === active ? ' suggestion--active' : ''}`}
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={() => index !== active && onHover(index)}
      onClick={() => onChoose(choice)}
    >
      {content(choice)}
    </div>
  );
  const indexed = options.map((choice, index) => ({ choice, index }));
  return (
    <div id={id} role="listbox" aria-label="Search suggestions" className="search__list" hidden={options.length === 0}>
      {indexed.filter(({ choice }) => choice.kind === 'search').map(({ choice, index }) => option(choice, index))}
      {GROUPS.map(({ kind, title }) => {
        const members = indexed.filter(({ choice }) => choice.kind === kind);
        if (members.length === 0) return null;
        return (
          <div key={kind} role="group" aria-labelledby={`${id}-${kind}`} className="search__group">
            <div id={`${id}-${kind}`} role="presentation" className="search__group-title">
              {title}
            </div>
            {members.map(({ choice, index }) => option(choice, index))}
          </div>
        );
      })}
    </div>
  );
}
