import { useId } from 'react';
import { COLOR_NAMES, type ColorName } from '../../contract/colors.ts';
import { colorLabel, SWATCH } from './colors.ts';

// The search page's filters: the colours a picture must have (chips that toggle `color=`) and where
// to look (`scope=`). Both only change the address; the page reads its state from there.

interface ChipsProps {
  chosen: readonly ColorName[];
  onToggle: (color: ColorName) => void;
}

/** The twelve colours as round swatches, each a toggle button named by its colour. */
export function ColorChips({ chosen, onToggle }: ChipsProps) {
  const labelId = useId();
  return (
    <div className="color-chips" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="color-chips__label">
        Colors
      </span>
      {COLOR_NAMES.map((color) => {
        const on = chosen.includes(color);
        return (
          <button
            key={color}
            type="button"
            className={`color-chip${on ? ' color-chip--on' : ''}`}
            aria-pressed={on}
            aria-label={colorLabel(color)}
            title={colorLabel(color)}
            onClick={() => onToggle(color)}
          >
            <span className="swatch color-chip__swatch" style={{ background: SWATCH[color] }} aria-hidden="true" />
          </button>
        );
      })}
    </div>
  );
}

export interface ScopeChoice {
  value: string;
  label: string;
}

/** Where a search looks: every pin, or (signed in) the reader's own pins or favorites, or a board. */
export function scopeChoices(signedIn: boolean, current: string | null): ScopeChoice[] {
  const choices: ScopeChoice[] = [{ value: '', label: 'All pins' }];
  if (signedIn) choices.push({ value: 'mine', label: 'Your pins' }, { value: 'favorites', label: 'Your favorites' });
  if (current?.startsWith('board:')) choices.push({ value: current, label: 'This board' });
  return choices;
}

interface ScopeProps {
  choices: ScopeChoice[];
  value: string | null;
  onChange: (scope: string | null) => void;
}

export function ScopeSelect({ choices, value, onChange }: ScopeProps) {
  const id = useId();
  return (
    <div className="search-scope">
      <label htmlFor={id} className="search-scope__label">
        Search in
      </label>
      <select id={id} className="search-scope__select" value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}
