// The New Pin page's image file (docs/images.md): a chosen file is checked, previewed at once from an
// object URL and uploaded with its progress; it can be cancelled or removed, and Save can wait for
// it. One file at a time: choosing another replaces (and cancels) the one before.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImageUploaded } from '../../../contract/duplicates.ts';
import type { StoredImage } from '../../../contract/images.ts';
import { isApiError } from '../../api/client.ts';
import { checkImageFile, isAbort, type UploadProgress, uploadImageAndDuplicates } from '../../api/images.ts';

export type UploadState =
  | { phase: 'empty' }
  | { phase: 'uploading'; file: File; preview: string; progress: UploadProgress }
  /** `duplicates`: the reader's own pins of the same or a near picture (docs/duplicates.md). */
  | ({ phase: 'done'; file: File; preview: string } & ImageUploaded)
  | { phase: 'failed'; file: File; preview: string };

/** Thrown by `whenUploaded` when the upload it waited for failed or was cancelled. */
export class UploadInterrupted extends Error {
  constructor() {
    super('The image upload did not finish.');
    this.name = 'UploadInterrupted';
  }
}

interface Current {
  file: File;
  preview: string;
  controller: AbortController;
  promise: Promise<ImageUploaded>;
}

const EMPTY: UploadState = { phase: 'empty' };
const UPLOAD_FAILED = 'The image could not be uploaded. Please try again.';

export function useImageUpload({ onUploaded }: { onUploaded: (image: StoredImage) => void }) {
  const [state, setState] = useState<UploadState>(EMPTY);
  /** The visible error of the last file (the client's check or the server's refusal). */
  const [error, setError] = useState<string | null>(null);
  /** What the page's status region says (and screen readers announce). */
  const [status, setStatus] = useState('');
  const current = useRef<Current | null>(null);
  const uploaded = useRef(onUploaded);
  uploaded.current = onUploaded;

  /** Drops the current file: cancels its upload and frees its preview. */
  const drop = useCallback(() => {
    const was = current.current;
    current.current = null;
    if (!was) return;
    was.controller.abort();
    URL.revokeObjectURL(was.preview);
  }, []);

  // Leaving the page cancels an upload nobody will use, and frees the preview.
  useEffect(() => drop, [drop]);

  /** Takes a file: checks it, previews it and starts its upload. False when it is refused. */
  const choose = useCallback(
    (file: File): boolean => {
      const problem = checkImageFile(file);
      if (problem) {
        setError(problem);
        setStatus('');
        return false;
      }
      drop();
      const preview = URL.createObjectURL(file);
      const controller = new AbortController();
      // A replaced or removed upload is aborted (see drop): its late answers are ignored.
      const isMine = () => !controller.signal.aborted;
      const promise = uploadImageAndDuplicates(file, {
        signal: controller.signal,
        onProgress: (progress) => {
          if (isMine()) setState({ phase: 'uploading', file, preview, progress });
        },
      });
      current.current = { file, preview, controller, promise };
      setError(null);
      setState({ phase: 'uploading', file, preview, progress: { loaded: 0, total: file.size || null } });
      setStatus(`Uploading ${file.name}…`);
      promise.then(
        ({ image, duplicates }) => {
          if (!isMine()) return;
          setState({ phase: 'done', file, preview, image, duplicates });
          setStatus('Image uploaded.');
          uploaded.current(image);
        },
        (reason: unknown) => {
          if (!isMine() || isAbort(reason)) return;
          console.error(reason); // docs/product.md §8: failures are logged
          setState({ phase: 'failed', file, preview });
          setError(isApiError(reason) ? reason.message : UPLOAD_FAILED);
          setStatus('');
        },
      );
      return true;
    },
    [drop],
  );

  /** Cancels the upload or removes the image; `quiet` when the user replaced it with a typed URL. */
  const remove = useCallback(
    ({ quiet = false }: { quiet?: boolean } = {}) => {
      const running = current.current !== null && state.phase === 'uploading';
      drop();
      setState(EMPTY);
      setError(null);
      setStatus(quiet ? '' : running ? 'Upload cancelled.' : 'Image removed.');
    },
    [drop, state.phase],
  );

  /**
   * The uploaded image and the reader's pins of it, once the running upload has finished (at once
   * when it has); null when no file was chosen. Rejects with UploadInterrupted when the upload fails
   * or is cancelled.
   */
  const whenUploaded = useCallback(async (): Promise<ImageUploaded | null> => {
    const waiting = current.current;
    if (!waiting) return null;
    try {
      return await waiting.promise;
    } catch {
      throw new UploadInterrupted();
    }
  }, []);

  return { state, error, status, choose, remove, whenUploaded };
}
