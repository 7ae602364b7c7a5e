import { LoadFailed } from '../components/LoadFailed.tsx';
import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import type { Pin } from '../../contract/index.ts';
import { isApiError } from '../api/client.ts';
import { updatePin } from '../api/pins.ts';
import { fetchPin } from '../api/pins.ts';
import { NotFound } from '../components/ErrorPage.tsx';
import { FormField } from '../components/FormField.tsx';
import { imageAlt } from '../components/image-alt.ts';
import { PinImageNotice, ReplaceImage } from '../components/ImageRepair.tsx';
import { PinImage } from '../components/PinImage.tsx';
import { Loading } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../hooks/useForm.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { useParamId } from '../hooks/useParamId.ts';
import { pinsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { upsertPin } from '../state/pins.ts';
import { showToast } from '../state/toasts.ts';

const LOADING_PIN = 'Loading pin data...';
export const ALT_TEXT_HINT = "Describe the picture for people who can't see it.";

export function EditPinPage() {
  useDocumentTitle('Edit Pin');
  const store = useStore();
  const id = useParamId('id');
  const pin = useAtomValue(pinsByIdAtom)[id ?? 0];
  const user = useAtomValue(sessionUserAtom);
  const { status, failure, reload } = useLoad(async () => {
    if (id === null) return; // "Pin not found" below; throwing would log as a failure
    upsertPin(store, await fetchPin(id));
  }, `edit-${id}`);

  if (id === null || (status === 'notFound' && !pin)) return <NotFound title="Pin not found" text="This pin does not exist or was deleted." />;
  if (!pin) {
    if (status === 'loading') return <Loading text={LOADING_PIN} />;
    if (status === 'error') return <LoadFailed failure={failure} onRetry={reload} />;
    return <NotFound title="Pin not found" text="This pin does not exist or was deleted." />;
  }
  if (pin.user_id !== user?.id) return <NotFound title="Not your pin" text="Only the pin's owner can edit it." />;
  // Keyed by pin id: the form starts from the pin as it was when the page opened.
  return <EditPinForm key={pin.id} pin={pin} />;
}

function EditPinForm({ pin }: { pin: Pin }) {
  const store = useStore();
  const [broken, setBroken] = useState(false);
  const navigate = useNavigate();
  const form = useForm({
    initial: { title: pin.title, description: pin.description, altText: pin.alt_text ?? '' },
    validate: ({ title }): FormErrors => (title.trim() ? {} : { title: MSG.titleRequired }),
    async submit({ title, description, altText }) {
      // Sent only when changed (absent leaves it); emptied, it is removed (null) and the picture's
      // `alt` falls back to its recognised text or its title (image-alt.ts).
      const alt = altText.trim();
      const body = { title: title.trim(), description: description.trim(), ...(alt === (pin.alt_text ?? '') ? {} : { altText: alt || null }) };
      upsertPin(store, await updatePin(pin.id, body));
      await navigate('/pins');
      showToast(store, 'Changes saved');
    },
    failed(error) {
      console.error(error); // docs/product.md §8: update failures are logged
      return isApiError(error) && error.status === 400 ? error.body.fields : {};
    },
  });

  return (
    <div className="form-page form-page--wide">
      {/* The image side is not part of the form: replacing the image is sent on its own, at once. */}
      <div className="form-card form-card--split">
        <div className="form-card__media">
          <div className="form-card__preview">
            <PinImage src={pin.image_url} image={pin.image} alt={imageAlt(pin)} eager onFailed={() => setBroken(true)} />
          </div>
          {!pin.image ? <PinImageNotice pin={pin} broken={broken} replace={false} /> : null}
          <ReplaceImage pin={pin} />
        </div>
        <form className="form-card__fields" onSubmit={form.onSubmit} noValidate aria-labelledby="edit-pin-title">
          <h1 id="edit-pin-title">Edit Pin</h1>
          <FormField label="Title" maxLength={LIMITS.title} {...form.field('title')} error={form.errors.title} />
          <FormField label="Description" multiline maxLength={LIMITS.description} {...form.field('description')} error={form.errors.description} />
          <FormField label="Alt text" multiline rows={2} maxLength={LIMITS.altText} hint={ALT_TEXT_HINT} {...form.field('altText')} error={form.errors.altText} />
          <button type="submit" className="button button--block" disabled={form.busy}>
            Save Changes
          </button>
          <Link to={`/pins/${pin.id}`} className="button button--secondary button--block">
            Cancel
          </Link>
        </form>
      </div>
    </div>
  );
}
