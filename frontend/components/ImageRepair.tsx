// An owner mending a pin whose image never arrived (docs/image-repair.md): their card says the
// import failed and why, the pin page says so with "Replace image" at hand, and the edit form can
// replace the image at any time — with a file (uploaded, attached at once) or a new address
// (imported again; the same address tries again).
import { useStore } from 'jotai';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import type { Pin } from '../../contract/index.ts';
import { isApiError } from '../api/client.ts';
import { checkImageFile, IMAGE_TYPES, uploadImage } from '../api/images.ts';
import { updatePin } from '../api/pins.ts';
import { forgetImageStatus, useImageStatus } from '../state/image-status.ts';
import { upsertPin } from '../state/pins.ts';
import { showToast } from '../state/toasts.ts';

export const IMPORT_FAILED = 'The image could not be imported';
export const IMPORTING = 'The image is still being imported…';
export const WAITS_FOR_PICTURE = 'Only you can see this pin until it has a picture; then it is public.';

/** Refusals of the address itself: the server will never fetch it, so a public pin waits for a picture (docs/who-sees-what.md). */
const REFUSED_ADDRESS = new Set(['blocked_address', 'bad_port', 'bad_scheme']);

/** On the owner's card whose image did not load: why, and where to mend it. */
export function CardImageNote({ pinId }: { pinId: number }) {
  const status = useImageStatus(pinId, true);
  if (!status || status.status === 'stored') return null;
  return (
    <p className="pin-card__note" role="note">
      {status.status === 'failed' ? `${IMPORT_FAILED}: ${status.message ?? ''}` : IMPORTING} <Link to={`/pins/${pinId}/edit`}>Replace image</Link>
    </p>
  );
}

/**
 * For the owner while the pin has no stored image (over the pin page's image, in the edit form):
 * why it failed, and (unless the page has its own) the way to mend it. An import still under way
 * is mentioned only when the image does not show meanwhile (`broken`).
 */
export function PinImageNotice({ pin, broken, replace = true }: { pin: Pin; broken: boolean; replace?: boolean }) {
  const status = useImageStatus(pin.id, pin.image === null);
  const [open, setOpen] = useState(false);
  if (!status || status.status === 'stored' || (status.status === 'importing' && !broken)) return null;
  return (
    <div className="image-notice" role="status">
      <p>{status.status === 'failed' ? `${IMPORT_FAILED}: ${status.message ?? ''}` : IMPORTING}</p>
      {status.status === 'failed' && pin.visibility === 'public' && REFUSED_ADDRESS.has(status.reason ?? '') ? <p>{WAITS_FOR_PICTURE}</p> : null}
      {!replace ? null : open ? (
        <ReplaceImage pin={pin} onDone={() => setOpen(false)} />
      ) : (
        <button type="button" className="button button--secondary button--small" onClick={() => setOpen(true)}>
          Replace image
        </button>
      )}
    </div>
  );
}

/** The edit form's part: a file or a new address for the pin's image, sent at once. */
export function ReplaceImage({ pin, onDone }: { pin: Pin; onDone?: () => void }) {
  const store = useStore();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function replace(imageUrl: string) {
    const saved = await updatePin(pin.id, { title: pin.title, description: pin.description, imageUrl });
    upsertPin(store, saved);
    forgetImageStatus(store, pin.id);
    showToast(store, saved.image ? 'Image replaced' : 'New image on its way: it is being imported');
    onDone?.();
  }

  async function run(label: string, work: () => Promise<void>) {
    setBusy(label);
    setError(null);
    try {
      await work();
    } catch (failure) {
      console.error(failure); // docs/product.md §8: pin update failures are logged
      setError(isApiError(failure) ? failure.message : 'Something went wrong.');
    } finally {
      setBusy(null);
    }
  }

  function onFile(file: File | undefined) {
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) return setError(problem);
    void run('Uploading…', async () => replace((await uploadImage(file)).url));
  }

  function onUrl(event: FormEvent) {
    event.preventDefault();
    const trimmed = url.trim();
    if (!isAllowedImageUrl(trimmed, [window.location.host])) return setError('Enter the address of an image (http or https).');
    void run('Saving…', () => replace(trimmed));
  }

  return (
    <div className="replace-image">
      <h2 className="replace-image__title">Replace image</h2>
      <input
        ref={fileInput}
        id={`${id}-file`}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Image file"
        onChange={(e) => onFile(e.target.files?.[0])}
      />
      <button type="button" className="button button--secondary button--small" disabled={busy !== null} onClick={() => fileInput.current?.click()}>
        Upload a file
      </button>
      <form className="replace-image__url" onSubmit={onUrl} noValidate>
        <label htmlFor={`${id}-url`} className="visually-hidden">
          New image URL
        </label>
        <input id={`${id}-url`} className="field__input" placeholder="or an image URL" value={url} maxLength={LIMITS.imageUrl} onChange={(e) => setUrl(e.target.value)} />
        <button type="submit" className="button button--small" disabled={busy !== null}>
          Use
        </button>
      </form>
      <p className="replace-image__status" role="status">
        {busy ?? ''}
      </p>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
