import { Link } from 'react-router';
import { SAVED_ALREADY, savedAlreadyWords } from '../../contract/duplicate-rules.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { BulkItem } from './bulk-queue.ts';

const PHASE_TEXT: Record<BulkItem['phase'], string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  saving: 'Saving',
  done: 'Pinned',
  error: 'Failed',
  paused: 'Waiting to retry',
  seen: SAVED_ALREADY.badge,
};

interface Props {
  item: BulkItem;
  onRetry: () => void;
  onSaveAnyway: () => void;
  onAltText: (value: string) => void;
  /** The field was left: a pin made already gets the alt text typed since. */
  onAltTextDone: () => void;
}

/**
 * One file of a bulk upload: its name, progress and phase, its optional alt text, and what can be
 * done with it — Retry after a failure; for a picture saved already (docs/duplicates.md) the same
 * words as the New Pin form's warning, with Open it and Save anyway, on the row itself.
 */
export function BulkRow({ item, onRetry, onSaveAnyway, onAltText, onAltTextDone }: Props) {
  const name = item.file.name;
  return (
    <li className={`bulk__item bulk__item--${item.phase}`} data-phase={item.phase}>
      <span className="bulk__name" title={name}>
        {name}
      </span>
      <progress className="bulk__progress" max={1} value={item.phase === 'done' ? 1 : item.progress} aria-label={`${name}: ${PHASE_TEXT[item.phase]}`} />
      <span className="bulk__phase">
        {item.phase === 'done' && item.pin ? <Link to={`/pins/${item.pin.id}`}>{PHASE_TEXT.done}</Link> : PHASE_TEXT[item.phase]}
        {item.phase === 'uploading' ? ` ${Math.round(item.progress * 100)}%` : ''}
      </span>
      {item.error ? (
        <span className="bulk__error" role={item.phase === 'error' ? 'alert' : undefined}>
          {item.error}
        </span>
      ) : null}
      {item.phase === 'error' ? (
        <button type="button" className="button button--small" onClick={onRetry}>
          Retry
        </button>
      ) : null}
      {item.phase === 'seen' && item.duplicate ? (
        <div className="bulk__seen" role="status">
          <span className="bulk__seen-words">{savedAlreadyWords(item.duplicate)}</span>
          <span className="bulk__seen-actions">
            <Link className="button button--small button--secondary" to={`/pins/${item.duplicate.pin.id}`} aria-label={`${SAVED_ALREADY.openIt}: ${name}`}>
              {SAVED_ALREADY.openIt}
            </Link>
            <button type="button" className="button button--small" onClick={onSaveAnyway} aria-label={`${SAVED_ALREADY.saveAnyway}: ${name}`}>
              {SAVED_ALREADY.saveAnyway}
            </button>
          </span>
        </div>
      ) : null}
      {item.phase === 'error' ? null : (
        <input
          className="bulk__alt"
          type="text"
          maxLength={LIMITS.altText}
          placeholder="Alt text (optional)"
          aria-label={`Alt text for ${name}`}
          value={item.altText ?? ''}
          onChange={(event) => onAltText(event.target.value)}
          onBlur={onAltTextDone}
        />
      )}
    </li>
  );
}
