import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { DuplicateGroup } from '../../../contract/duplicates.ts';
import { isApiError } from '../../api/client.ts';
import { PinImage } from '../../components/PinImage.tsx';
import { savedOn } from './saved-on.ts';

/**
 * One group of look-alike pins as small card rows, newest first: the reader picks the one to keep
 * (the newest unless they say) and merges the others into it.
 */
export function DuplicateGroupCard({ group, onMerge }: { group: DuplicateGroup; onMerge: (keepId: number) => Promise<void> }) {
  const name = useId();
  const [keep, setKeep] = useState(group.pins[0]?.id ?? 0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function merge() {
    setBusy(true);
    setError(null);
    try {
      await onMerge(keep);
    } catch (reason) {
      console.error(reason); // docs/product.md §8: failures are logged
      setError(isApiError(reason) ? reason.message : 'Could not merge these pins. Please try again.');
      setBusy(false);
    }
  }

  return (
    <section className="duplicate-group" aria-label={`${group.pins.length} look-alike pins`}>
      <fieldset className="duplicate-group__rows" disabled={busy}>
        <legend className="visually-hidden">Keep this one</legend>
        {group.pins.map((pin) => (
          <label key={pin.id} className={`duplicate-row${pin.id === keep ? ' duplicate-row--kept' : ''}`}>
            <input type="radio" name={name} value={pin.id} checked={pin.id === keep} onChange={() => setKeep(pin.id)} aria-label={`Keep “${pin.title}”`} />
            <span className="duplicate-row__thumb">
              {/* Beside its title: the picture says nothing the row does not. */}
              <PinImage src={pin.image_url} image={pin.image} alt="" sizes="64px" aspect={1} />
            </span>
            <span className="duplicate-row__text">
              <Link to={`/pins/${pin.id}`} className="duplicate-row__title">
                {pin.title}
              </Link>
              <span className="duplicate-row__meta">Saved {savedOn(pin.created_at)}</span>
            </span>
            <span className="duplicate-row__keep" aria-hidden="true">
              {pin.id === keep ? 'Keeping this one' : 'Keep this one'}
            </span>
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="duplicate-group__error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="button" className="button duplicate-group__merge" onClick={() => void merge()} disabled={busy}>
        {busy ? 'Merging…' : `Merge ${group.pins.length} pins`}
      </button>
    </section>
  );
}
