import { useStore } from 'jotai';
import { useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { isApiError } from '../api/client.ts';
import { createPin } from '../api/pins.ts';
import { FormField } from '../components/FormField.tsx';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { PinImage } from '../components/PinImage.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../hooks/useForm.ts';
import { upsertPin } from '../state/pins.ts';

/** SPEC §5: title and image URL non-blank; every problem is listed together. */
function validateNewPin({ title, imageUrl }: { title: string; imageUrl: string }): FormErrors {
  const errors: FormErrors = {};
  if (!title.trim()) errors.title = MSG.titleRequired;
  if (!imageUrl.trim()) errors.imageUrl = MSG.imageUrlRequired;
  else if (!isAllowedImageUrl(imageUrl.trim(), [window.location.host])) errors.imageUrl = MSG.imageUrlInvalid;
  return errors;
}

function ErrorList({ errors, label }: { errors: readonly string[]; label: string }) {
  if (errors.length === 0) return null;
  return (
    <div role="alert">
      <ul className="error-list" aria-label={label}>
        {errors.map((error) => (
          <li key={error}>{error}</li>
        ))}
      </ul>
    </div>
  );
}

export function NewPinPage() {
  useDocumentTitle('Create a New Pin');
  const store = useStore();
  const navigate = useNavigate();
  const form = useForm({
    initial: { title: '', imageUrl: '', description: '' },
    validate: validateNewPin,
    async submit({ title, imageUrl, description }) {
      upsertPin(store, await createPin({ title: title.trim(), imageUrl: imageUrl.trim(), description: description.trim() }));
      await navigate('/pins');
    },
    failed(error) {
      // SPEC §8: failures are logged. A 400 carries the same validation texts as ours: list them.
      console.error(error);
      return isApiError(error) && error.status === 400 ? error.body.fields : {};
    },
  });
  const imageUrl = form.values.imageUrl.trim();
  const preview = imageUrl && isAllowedImageUrl(imageUrl, [window.location.host]) ? imageUrl : '';

  return (
    <div className="form-page form-page--wide">
      <form className="form-card form-card--split" onSubmit={form.onSubmit} noValidate aria-labelledby="new-pin-title">
        <div className="form-card__preview" aria-hidden={preview ? undefined : true}>
          {preview ? <PinImage src={preview} alt="Preview of the image" eager /> : <div className="preview-empty">Image preview</div>}
        </div>
        <div className="form-card__fields">
          <h1 id="new-pin-title">Create a New Pin</h1>
          <ErrorList errors={Object.values(form.errors)} label="Problems with this pin" />
          <FormField label="Title" maxLength={LIMITS.title} {...form.field('title')} />
          <FormField label="Image URL" type="url" inputMode="url" placeholder="https://…" maxLength={LIMITS.imageUrl} {...form.field('imageUrl')} />
          <FormField label="Description (optional)" multiline maxLength={LIMITS.description} {...form.field('description')} />
          <button type="submit" className="button button--block" disabled={form.busy}>
            Save Pin
          </button>
        </div>
      </form>
    </div>
  );
}
