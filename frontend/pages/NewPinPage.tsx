import { useStore } from 'jotai';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { isApiError } from '../api/client.ts';
import { createPin } from '../api/pins.ts';
import { showToast } from '../state/toasts.ts';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { FormField } from '../components/FormField.tsx';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../hooks/useForm.ts';
import { upsertPin } from '../state/pins.ts';
import { BulkUpload } from '../bulk/BulkUpload.tsx';
import { ImagePicker } from './new-pin/ImagePicker.tsx';
import { UploadInterrupted, useImageUpload } from './new-pin/useImageUpload.ts';
import { usePastedFile } from './new-pin/usePastedFile.ts';
import type { BuilderPrefill } from './pin-builder/params.ts';
import { SourceLine } from './pin-builder/SourceLine.tsx';

/**
 * docs/product.md §5: title and image URL non-blank; every problem is listed together. A file being uploaded
 * stands for the image URL: its address fills it in when the upload is done.
 */
function validateNewPin({ title, imageUrl }: { title: string; imageUrl: string }, uploading: boolean): FormErrors {
  const errors: FormErrors = {};
  if (!title.trim()) errors.title = MSG.titleRequired;
  if (!imageUrl.trim()) {
    if (!uploading) errors.imageUrl = MSG.imageUrlRequired;
  } else if (!isAllowedImageUrl(imageUrl.trim(), [window.location.host])) errors.imageUrl = MSG.imageUrlInvalid;
  return errors;
}

const ERRORS_ID = 'new-pin-errors';
export const SAVE_ANYWAY = 'This image could not be loaded. Save anyway?';

function ErrorList({ id, errors, label }: { id: string; errors: readonly string[]; label: string }) {
  if (errors.length === 0) return null;
  return (
    <div role="alert" id={id}>
      <ul className="error-list" aria-label={label}>
        {errors.map((error) => (
          <li key={error}>{error}</li>
        ))}
      </ul>
    </div>
  );
}

/** `prefill`: the form filled in from a pin builder link (pages/PinBuilderPage.tsx), with its source page. */
export function NewPinPage({ prefill }: { prefill?: BuilderPrefill } = {}) {
  useDocumentTitle('Create a New Pin');
  const store = useStore();
  const navigate = useNavigate();
  // The uploaded image's address becomes the pin's image URL (docs/images.md).
  const upload = useImageUpload({ onUploaded: (image) => form.set('imageUrl', image.url) });
  const uploading = upload.state.phase === 'uploading';
  const [waiting, setWaiting] = useState(false);
  const [brokenPreview, setBrokenPreview] = useState<string | null>(null);
  const [confirmBroken, setConfirmBroken] = useState(false);
  const urlInput = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const form = useForm({
    initial: { title: prefill?.title ?? '', imageUrl: prefill?.imageUrl ?? '', description: prefill?.description ?? '' },
    validate: (values) => validateNewPin(values, uploading),
    async submit({ title, imageUrl, description }) {
      // Save waits for a running upload, then sends the address it gave.
      setWaiting(uploading);
      let image;
      try {
        image = uploading ? await upload.whenUploaded() : null;
      } finally {
        setWaiting(false);
      }
      const url = image ? image.url : imageUrl.trim();
      const source = prefill?.sourceUrl ? { sourceUrl: prefill.sourceUrl } : {};
      upsertPin(store, await createPin({ title: title.trim(), imageUrl: url, description: description.trim(), ...source }));
      await navigate('/pins');
      showToast(store, 'Pin created');
    },
    failed(error) {
      // The upload's own error is already shown beside it.
      if (error instanceof UploadInterrupted) return {};
      // docs/product.md §8: failures are logged. A 400 carries the same validation texts as ours: list them.
      console.error(error);
      return isApiError(error) && error.status === 400 ? error.body.fields : {};
    },
  });

  /** A file chosen, dropped or pasted replaces the typed URL. */
  function takeFile(file: File) {
    if (upload.choose(file)) form.set('imageUrl', '');
  }
  usePastedFile(takeFile);

  function removeFile() {
    const url = upload.state.phase === 'done' ? upload.state.image.url : null;
    upload.remove();
    form.set('imageUrl', (current) => (current === url ? '' : current));
  }

  const urlField = form.field('imageUrl');
  /** Typing a URL is the other way in: it drops the chosen file. */
  const onUrlChange = (event: { target: { value: string } }) => {
    if (upload.state.phase !== 'empty') upload.remove({ quiet: true });
    urlField.onChange(event);
  };

  const imageUrl = form.values.imageUrl.trim();
  const preview = imageUrl && isAllowedImageUrl(imageUrl, [window.location.host]) ? imageUrl : '';

  /** A typed URL whose preview failed is saved only once the user says so. */
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (upload.state.phase === 'empty' && preview && preview === brokenPreview) {
      event.preventDefault();
      setConfirmBroken(true);
      return;
    }
    form.onSubmit(event);
  }

  return (
    <div className="form-page form-page--wide">
      <form className="form-card form-card--split" onSubmit={onSubmit} noValidate aria-labelledby="new-pin-title">
        <ImagePicker
          upload={upload.state}
          error={upload.error}
          status={upload.status}
          urlPreview={preview}
          onUrlPreviewFailed={setBrokenPreview}
          onFile={takeFile}
          onRemove={removeFile}
        />
        <div className="form-card__fields">
          <h1 id="new-pin-title">Create a New Pin</h1>
          {prefill?.sourceUrl ? <SourceLine sourceUrl={prefill.sourceUrl} /> : null}
          <ErrorList id={ERRORS_ID} errors={Object.values(form.errors)} label="Problems with this pin" />
          <FormField label="Title" maxLength={LIMITS.title} {...form.field('title')} invalidBy={form.errors.title ? ERRORS_ID : undefined} />
          <FormField
            label="Image URL"
            type="url"
            inputMode="url"
            placeholder="https://…"
            maxLength={LIMITS.imageUrl}
            {...urlField}
            onChange={onUrlChange}
            invalidBy={form.errors.imageUrl ? ERRORS_ID : undefined}
            ref={urlInput}
          />
          <FormField label="Description (optional)" multiline maxLength={LIMITS.description} {...form.field('description')} />
          <button type="submit" className="button button--block" disabled={form.busy} aria-describedby={waiting ? 'new-pin-waiting' : undefined}>
            Save Pin
          </button>
          <p id="new-pin-waiting" className="field__hint" role="status">
            {waiting ? 'Saving as soon as the image has uploaded…' : ''}
          </p>
        </div>
      </form>
      {prefill ? null : <BulkUpload />}
      {confirmBroken ? (
        <ConfirmModal
          title="Image not loaded"
          message={SAVE_ANYWAY}
          confirmLabel="Save anyway"
          cancelLabel="Cancel"
          onConfirm={() => {
            form.submitNow();
          }}
          onClose={() => {
            setConfirmBroken(false);
            // After the dialog has given the focus back to Save Pin: the URL is what to fix.
            setTimeout(() => urlInput.current?.focus(), 0);
          }}
        />
      ) : null}
    </div>
  );
}
