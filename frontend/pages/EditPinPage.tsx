import { useAtomValue, useStore } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import type { Pin } from '../../contract/index.ts';
import { isApiError } from '../api/client.ts';
import { fetchPin, updatePin } from '../api/pins.ts';
import { NotFound } from '../components/ErrorPage.tsx';
import { FormField } from '../components/FormField.tsx';
import { PinImage } from '../components/PinImage.tsx';
import { Loading, RetryLoad } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { useParamId } from '../hooks/useParamId.ts';
import { pinsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { upsertPin } from '../state/pins.ts';

export const LOADING_PIN = 'Loading pin data...';

export function EditPinPage() {
  useDocumentTitle('Edit Pin');
  const store = useStore();
  const id = useParamId('id');
  const pin = useAtomValue(pinsByIdAtom)[id ?? 0];
  const user = useAtomValue(sessionUserAtom);
  const { status, reload } = useLoad(async () => {
    if (id === null) throw new Error('bad id');
    upsertPin(store, await fetchPin(id));
  }, `edit-${id}`);

  if (id === null || (status === 'notFound' && !pin)) return <NotFound title="Pin not found" text="This pin does not exist or was deleted." />;
  if (!pin) {
    if (status === 'loading') return <Loading text={LOADING_PIN} />;
    if (status === 'error') return <RetryLoad onRetry={reload} />;
    return <NotFound title="Pin not found" text="This pin does not exist or was deleted." />;
  }
  if (pin.user_id !== user?.id) return <NotFound title="Not your pin" text="Only the pin's owner can edit it." />;
  // Keyed by pin id: the form starts from the pin as it was when the page opened.
  return <EditPinForm key={pin.id} pin={pin} />;
}

function EditPinForm({ pin }: { pin: Pin }) {
  const store = useStore();
  const navigate = useNavigate();
  const [title, setTitle] = useState(pin.title);
  const [description, setDescription] = useState(pin.description);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) {
      setError(MSG.titleRequired);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      upsertPin(store, await updatePin(pin.id, { title: title.trim(), description: description.trim() }));
      await navigate('/pins');
    } catch (err) {
      console.error(err); // SPEC §8: update failures are logged
      if (isApiError(err) && err.status === 400 && err.body.errors[0]) setError(err.body.errors[0]);
      setBusy(false);
    }
  }

  return (
    <div className="form-page form-page--wide">
      <form className="form-card form-card--split" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="edit-pin-title">
        <div className="form-card__preview">
          <PinImage src={pin.image_url} alt={pin.title} eager />
        </div>
        <div className="form-card__fields">
          <h1 id="edit-pin-title">Edit Pin</h1>
          <FormField label="Title" name="title" value={title} maxLength={LIMITS.title} onChange={(e) => setTitle(e.target.value)} error={error} />
          <FormField
            label="Description"
            name="description"
            multiline
            value={description}
            maxLength={LIMITS.description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <button type="submit" className="button button--block" disabled={busy}>
            Save Changes
          </button>
          <Link to={`/pins/${pin.id}`} className="button button--secondary button--block">
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}
