import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SHARED_FILE_LOST, SHARED_PARAM } from '../../../contract/share-target.ts';
import { isApiError } from '../../api/client.ts';
import { checkImageFile, isAbort, uploadImage, type UploadProgress } from '../../api/images.ts';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { forgetSharedFile, readSharedFile } from './shared-file.ts';
import './pin-builder.css';

export const SHARED_PICTURE_LOST = "The shared picture didn't arrive — choose it again.";
const UPLOAD_FAILED = 'The shared picture could not be uploaded.';

export type SharedPictureState =
  | { phase: 'reading' }
  | { phase: 'uploading'; file: File; preview: string; progress: UploadProgress }
  /** Why the form opens without the picture: it is gone, refused or its upload failed. */
  | { phase: 'missing'; message: string };

/**
 * Uploads the picture shared to the installed app (docs/installable-app.md) with the page's one
 * upload call, then puts the upload's address into the builder's link (`media`) in place of the
 * shared file: the form opens with the picture chosen, and a reload keeps it.
 */
export function useSharedPicture(reference: string): SharedPictureState {
  const navigate = useNavigate();
  // The link as it was opened (a new link is a new page: PinBuilderPage keys it).
  const location = useLocation();
  const [link] = useState(location);
  const [state, setState] = useState<SharedPictureState>({ phase: 'reading' });
  useEffect(() => {
    const controller = new AbortController();
    let preview: string | null = null;
    const missing = (message: string) => !controller.signal.aborted && setState({ phase: 'missing', message });
    const run = async () => {
      const file = reference === SHARED_FILE_LOST ? null : await readSharedFile(reference);
      if (controller.signal.aborted) return;
      if (!file) return missing(SHARED_PICTURE_LOST);
      const problem = checkImageFile(file);
      if (problem) return missing(problem);
      const shown = URL.createObjectURL(file);
      preview = shown;
      setState({ phase: 'uploading', file, preview: shown, progress: { loaded: 0, total: file.size } });
      const onProgress = (progress: UploadProgress) => !controller.signal.aborted && setState({ phase: 'uploading', file, preview: shown, progress });
      const image = await uploadImage(file, { signal: controller.signal, onProgress });
      await forgetSharedFile(reference);
      const search = new URLSearchParams(link.search);
      search.delete(SHARED_PARAM);
      search.set('media', image.url);
      await navigate({ pathname: link.pathname, search: `?${search.toString()}` }, { replace: true });
    };
    run().catch((error: unknown) => {
      if (isAbort(error)) return;
      console.error(error); // docs/product.md §8: failures are logged
      missing(isApiError(error) ? error.message : UPLOAD_FAILED);
    });
    return () => {
      controller.abort();
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [reference, link, navigate]);
  return state;
}

/** What shows while the shared picture is read and uploaded. */
export function SharedPictureUpload({ state }: { state: Exclude<SharedPictureState, { phase: 'missing' }> }) {
  useDocumentTitle('Create a New Pin');
  const uploading = state.phase === 'uploading' ? state : null;
  const total = uploading?.progress.total ?? null;
  return (
    <div className="form-page">
      <div className="form-card builder-share">
        <h1>Create a New Pin</h1>
        {uploading ? <img className="builder-share__preview" src={uploading.preview} alt="The shared picture" /> : null}
        <p role="status">{uploading ? `Uploading ${uploading.file.name}…` : 'Reading the shared picture…'}</p>
        {uploading ? <progress className="builder-share__progress" max={total ?? 1} value={total ? uploading.progress.loaded : undefined} aria-label="Upload progress" /> : null}
      </div>
    </div>
  );
}
