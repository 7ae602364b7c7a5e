import { useStore } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { isApiError } from '../api/client.ts';
import { createPin } from '../api/pins.ts';
import { FormField } from '../components/FormField.tsx';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { PinImage } from '../components/PinImage.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { upsertPin } from '../state/pins.ts';

/** SPEC §5: title and image URL non-blank; every problem is listed together. */
export function validateNewPin(title: string, imageUrl: string): string[] {
  const errors: string[] = [];
  if (!title.trim()) errors.push(MSG.titleRequired);
  if (!imageUrl.trim()) errors.push(MSG.imageUrlRequired);
  else if (!isAllowedImageUrl(imageUrl.trim(), [window.location.host])) errors.push(MSG.imageUrlInvalid);
  return errors;
}

export function ErrorList({ errors, label }: { errors: readonly string[]; label: string }) {
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
  const [title, setTitle] = useState('');
  const [imageUrl, setImageUrl] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const preview = imageUrl.trim() && isAllowedImageUrl(imageUrl.trim(), [window.location.host]) ? imageUrl.trim() : '';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = validateNewPin(title, imageUrl);
    setErrors(found);
    if (found.length) return;
    setBusy(true);
    try {
      const pin = await createPin({ title: title.trim(), imageUrl: imageUrl.trim(), description: description.trim() });
      upsertPin(store, pin);
      await navigate('/pins');
    } catch (error) {
      // SPEC §8: failures are logged. A 400 carries the same validation texts as ours: list them.
      console.error(error);
      if (isApiError(error) && error.status === 400 && error.body.errors.length) setErrors(error.body.errors);
      setBusy(false);
    }
  }

  return (
    <div className="form-page form-page--wide">
      <form className="form-card form-card--split" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="new-pin-title">
        <div className="form-card__preview" aria-hidden={preview ? undefined : true}>
          {preview ? <PinImage src={preview} alt="Preview of the image" eager /> : <div className="preview-empty">Image preview</div>}
        </div>
        <div className="form-card__fields">
          <h1 id="new-pin-title">Create a New Pin</h1>
          <ErrorList errors={errors} label="Problems with this pin" />
          <FormField label="Title" name="title" value={title} maxLength={LIMITS.title} onChange={(e) => setTitle(e.target.value)} />
          <FormField
            label="Image URL"
            name="imageUrl"
            type="url"
            inputMode="url"
            placeholder="https://…"
            value={imageUrl}
            maxLength={LIMITS.imageUrl}
            onChange={(e) => setImageUrl(e.target.value)}
          />
          <FormField
            label="Description (optional)"
            name="description"
            multiline
            value={description}
            maxLength={LIMITS.description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <button type="submit" className="button button--block" disabled={busy}>
            Save Pin
          </button>
        </div>
      </form>
    </div>
  );
}
