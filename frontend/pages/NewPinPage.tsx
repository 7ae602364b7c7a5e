import { useAtomValue, useStore } from 'jotai';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import type { Pin } from '../../contract/pins.ts';
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
import { visibleBoardsByIdAtom } from '../state/hidden.ts';
import { BulkUpload } from '../bulk/BulkUpload.tsx';
import { titleFromFileName } from '../bulk/bulk-queue.ts';
import { BoardSelect } from '../components/BoardSelect.tsx';
import { PagePicturePicker } from '../components/PagePicturePicker.tsx';
import { FromWebsite, type PickedPage } from './new-pin/FromWebsite.tsx';
import { ImagePicker } from './new-pin/ImagePicker.tsx';
import { SavedAlready } from './new-pin/SavedAlready.tsx';
import { UploadInterrupted, useImageUpload } from './new-pin/useImageUpload.ts';
import { usePastedFile } from './new-pin/usePastedFile.ts';
import type { BuilderPrefill } from './pin-builder/params.ts';
import type { SavedBoard } from './pin-builder/SavedScreen.tsx';
import { SourceLine } from './pin-builder/SourceLine.tsx';
import { usePictureCheck } from './pin-builder/usePictureCheck.ts';

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

/** Thrown by Save when the uploaded picture is one the reader saved already and they have not said "Save anyway". */
class SavedAlreadyStop extends Error {
  constructor() {
    super('This picture was saved already.');
    this.name = 'SavedAlreadyStop';
  }
}
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

interface Props {
  /** The form filled in from a pin builder link (pages/PinBuilderPage.tsx), with its source page. */
  prefill?: BuilderPrefill;
  /** Instead of going to /pins after Save (the pin builder shows its own end). */
  onSaved?: (pin: Pin, board: SavedBoard) => void;
}

/** A title from a file's name, as bulk upload titles its pins: no extension, separators as spaces. */
const titleFromFile = (file: File) => titleFromFileName(file.name).slice(0, LIMITS.title).trimEnd();

export function NewPinPage({ prefill, onSaved }: Props = {}) {
  useDocumentTitle('Create a New Pin');
  const store = useStore();
  const navigate = useNavigate();
  const boardsById = useAtomValue(visibleBoardsByIdAtom);
  const [boardId, setBoardId] = useState<number | null>(null);
  /** The title last filled in from a file's name: a later file may replace it, never a typed one. */
  const fileTitle = useRef<string | null>(null);
  // The uploaded image's address becomes the pin's image URL (docs/images.md).
  const upload = useImageUpload({ onUploaded: (image) => form.set('imageUrl', image.url) });
  const uploading = upload.state.phase === 'uploading';
  const [waiting, setWaiting] = useState(false);
  const [brokenPreview, setBrokenPreview] = useState<string | null>(null);
  const [confirmBroken, setConfirmBroken] = useState(false);
  const urlInput = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  // "From a website" (docs/page-images.md): its panel, and the picture picked with its page.
  const [websiteOpen, setWebsiteOpen] = useState(false);
  const [picked, setPicked] = useState<{ imageUrl: string; page: PickedPage } | null>(null);
  const websitePanelId = useId();
  /** The uploaded picture (its address) the reader chose to save again though they had it (docs/duplicates.md). */
  const savingAnyway = useRef<string | null>(null);
  const warning = useRef<HTMLDivElement>(null);
  const form = useForm({
    initial: { title: prefill?.title ?? '', imageUrl: prefill?.imageUrl ?? '', description: prefill?.description ?? '', altText: '' },
    validate: (values) => validateNewPin(values, uploading),
    async submit({ title, imageUrl, description, altText }) {
      // Save waits for a running upload, then sends the address it gave.
      setWaiting(uploading);
      let uploaded;
      try {
        uploaded = uploading ? await upload.whenUploaded() : upload.state.phase === 'done' ? upload.state : null;
      } finally {
        setWaiting(false);
      }
      const url = uploaded && uploading ? uploaded.image.url : imageUrl.trim();
      // A picture the reader has saved before (uploaded, or by its address) waits for "Save anyway" (its warning is shown).
      const seen = uploaded ? uploaded.duplicates : await pictureCheck.check(url);
      if (seen.length > 0 && savingAnyway.current !== url) throw new SavedAlreadyStop();
      const sourceUrl = prefill?.sourceUrl ?? pickedSource(url);
      const source = sourceUrl ? { sourceUrl } : {};
      // Made in the board in one call: private when the board is (docs/who-sees-what.md).
      const board = boardId !== null ? { id: boardId, name: boardsById[boardId]?.name ?? 'the board' } : null;
      // The alt text is sent only when given (optional, docs/duplicates.md's New Pin form).
      const alt = altText.trim() ? { altText: altText.trim() } : {};
      const pin = await createPin({ title: title.trim(), imageUrl: url, description: description.trim(), ...source, ...(board ? { boardId: board.id } : {}), ...alt });
      upsertPin(store, pin);
      if (onSaved) return onSaved(pin, board);
      await navigate('/pins');
      showToast(store, board ? `Saved to ${board.name}` : 'Pin created');
    },
    failed(error) {
      // The upload's own error is already shown beside it.
      if (error instanceof UploadInterrupted) return {};
      // The warning above Save says why, and offers "Save anyway".
      if (error instanceof SavedAlreadyStop) {
        setTimeout(() => warning.current?.querySelector('button')?.focus(), 0);
        return {};
      }
      // docs/product.md §8: failures are logged. A 400 carries the same validation texts as ours: list them.
      console.error(error);
      return isApiError(error) && error.status === 400 ? error.body.fields : {};
    },
  });

  /** A file chosen, dropped or pasted replaces the typed URL, and names the pin unless a title was typed. */
  function takeFile(file: File) {
    if (!upload.choose(file)) return;
    form.set('imageUrl', '');
    const title = form.values.title;
    if (title.trim() && title !== fileTitle.current) return;
    fileTitle.current = titleFromFile(file);
    form.set('title', fileTitle.current);
  }
  usePastedFile(takeFile);

  function removeFile() {
    const url = upload.state.phase === 'done' ? upload.state.image.url : null;
    upload.remove();
    form.set('imageUrl', (current) => (current === url ? '' : current));
  }

  /** A picture of the page chosen in the pin builder: it is the image URL now, instead of a file. */
  function choosePicture(url: string) {
    if (upload.state.phase !== 'empty') upload.remove({ quiet: true });
    form.set('imageUrl', url);
  }

  /** A picture picked from a website: the pin's image, the page its source, its title the pin's unless one was typed. */
  function pickFromWebsite(url: string, page: PickedPage) {
    choosePicture(url);
    setPicked({ imageUrl: url, page });
    const title = form.values.title;
    if (!page.title || (title.trim() && title !== fileTitle.current)) return;
    fileTitle.current = page.title.slice(0, LIMITS.title).trimEnd();
    form.set('title', fileTitle.current);
  }

  /** The page a website's picture came from, while that picture is still the pin's image. */
  function pickedSource(imageUrl: string): string | null {
    return picked && picked.imageUrl === imageUrl ? picked.page.url : null;
  }

  const urlField = form.field('imageUrl');
  /** Typing a URL is the other way in: it drops the chosen file. */
  const onUrlChange = (event: { target: { value: string } }) => {
    if (upload.state.phase !== 'empty') upload.remove({ quiet: true });
    urlField.onChange(event);
  };

  const imageUrl = form.values.imageUrl.trim();
  const websiteSource = prefill ? null : pickedSource(imageUrl);
  const preview = imageUrl && isAllowedImageUrl(imageUrl, [window.location.host]) ? imageUrl : '';
  // A picture by its address (the pin builder's, a typed URL) is checked as an upload is.
  const pictureCheck = usePictureCheck(upload.state.phase === 'empty' ? preview : '');
  const pictureUrl = upload.state.phase === 'done' ? upload.state.image.url : imageUrl;
  const seenBefore = upload.state.phase === 'done' ? upload.state.duplicates : upload.state.phase === 'empty' ? pictureCheck.duplicates : [];
  const duplicate = pictureUrl !== savingAnyway.current ? seenBefore[0] : undefined;

  function saveAnyway() {
    savingAnyway.current = pictureUrl;
    form.submitNow();
  }

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
          website={
            prefill
              ? undefined
              : {
                  open: websiteOpen,
                  onToggle: () => setWebsiteOpen((open) => !open),
                  panelId: websitePanelId,
                  panel: <FromWebsite id={websitePanelId} selected={form.values.imageUrl} onPick={pickFromWebsite} />,
                }
          }
        >
          {prefill?.sourceUrl ? <PagePicturePicker key={prefill.sourceUrl} pageUrl={prefill.sourceUrl} media={prefill.imageUrl} selected={form.values.imageUrl} onChoose={choosePicture} /> : null}
        </ImagePicker>
        <div className="form-card__fields">
          <h1 id="new-pin-title">Create a New Pin</h1>
          {prefill?.sourceUrl ? <SourceLine sourceUrl={prefill.sourceUrl} /> : null}
          {websiteSource ? <SourceLine sourceUrl={websiteSource} /> : null}
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
          <FormField label="Alt text" hint="Describe the picture for people who can't see it." multiline rows={2} maxLength={LIMITS.altText} {...form.field('altText')} />
          <BoardSelect value={boardId} onChange={setBoardId} disabled={form.busy} />
          {duplicate ? (
            <div ref={warning}>
              <SavedAlready duplicate={duplicate} onSaveAnyway={saveAnyway} disabled={form.busy} />
            </div>
          ) : null}
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
