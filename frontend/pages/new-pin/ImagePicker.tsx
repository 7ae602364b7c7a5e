// The image side of the New Pin form: the preview (of the chosen file, or of the typed URL), which
// is also where a file can be dropped; the picker button; the upload's progress, its cancel/remove
// button, its error and a status line that screen readers announce; beside the picker, "From a
// website" opens the page-picture search (./FromWebsite.tsx). On a touch screen, where nothing can
// be dropped or pasted, the empty preview is a button that chooses a photo.
import { useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { IMAGE_TYPES } from '../../api/images.ts';
import { PinImage } from '../../components/PinImage.tsx';
import { useCoarsePointer } from './coarse-pointer.ts';
import { pickFile } from './files.ts';
import './from-website.css';
import type { UploadState } from './useImageUpload.ts';

interface Props {
  upload: UploadState;
  error: string | null;
  status: string;
  /** The typed image URL to preview when no file is chosen ('' for none). */
  urlPreview: string;
  /** The typed URL's preview could not be loaded. */
  onUrlPreviewFailed: (url: string) => void;
  onFile: (file: File) => void;
  onRemove: () => void;
  /** Shown under the preview: the pin builder's choice of the page's pictures. */
  children?: ReactNode;
  /** "From a website": whether its panel is open, the toggle, and the panel (New Pin only). */
  website?: { open: boolean; onToggle: () => void; panelId: string; panel: ReactNode } | undefined;
}

const FORMATS = 'JPEG, PNG, WebP, GIF or AVIF, up to 20 MB.';

function hasFiles(event: { dataTransfer: DataTransfer | null }): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/** On this page a file dropped beside the drop area must not make the browser leave to open it. */
function useNoStrayDrops(): void {
  useEffect(() => {
    const refuse = (event: globalThis.DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, []);
}

function percentOf(upload: Extract<UploadState, { phase: 'uploading' }>): number | null {
  const { loaded, total } = upload.progress;
  return total ? Math.min(100, Math.round((loaded / total) * 100)) : null;
}

function Progress({ upload }: { upload: Extract<UploadState, { phase: 'uploading' }> }) {
  const percent = percentOf(upload);
  return (
    <div className="upload__progress">
      <div
        className={`progress${percent === null ? ' progress--indeterminate' : ''}`}
        role="progressbar"
        aria-label={`Uploading ${upload.file.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? 'Uploading' : `${percent}%`}
      >
        <div className="progress__bar" style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
      <span className="upload__percent" aria-hidden="true">
        {percent === null ? '' : `${percent}%`}
      </span>
    </div>
  );
}

function Preview({ upload, urlPreview, onUrlPreviewFailed, touch, onChoose }: Pick<Props, 'upload' | 'urlPreview' | 'onUrlPreviewFailed'> & { touch: boolean; onChoose: () => void }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (upload.phase !== 'empty') {
    if (broken === upload.preview) return <div className="preview-empty">No preview for this file</div>;
    return <img className="upload__preview" src={upload.preview} alt="Preview of the image" onError={() => setBroken(upload.preview)} />;
  }
  if (urlPreview) return <PinImage src={urlPreview} alt="Preview of the image" eager onFailed={() => onUrlPreviewFailed(urlPreview)} />;
  if (touch) {
    return (
      <button type="button" className="preview-empty preview-empty--choose" onClick={onChoose}>
        Tap to choose a photo
      </button>
    );
  }
  return (
    <div className="preview-empty">
      Image preview
      <span className="preview-empty__hint">Drop an image here</span>
    </div>
  );
}

/** The preview as a drop zone: `dragging` while files are over it; a dropped image goes to `onFile`. */
function useDropZone(onFile: (file: File) => void) {
  const [dragging, setDragging] = useState(false);
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault(); // allows the drop
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const handlers = {
    onDragOver,
    onDragEnter: onDragOver,
    onDragLeave: (event: DragEvent<HTMLDivElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent<HTMLDivElement>) => {
      event.preventDefault();
      setDragging(false);
      const file = pickFile(event.dataTransfer.files);
      if (file) onFile(file);
    },
  };
  return { dragging, handlers };
}

export function ImagePicker({ upload, error, status, urlPreview, onUrlPreviewFailed, onFile, onRemove, children, website }: Props) {
  const touch = useCoarsePointer();
  const input = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const { dragging, handlers } = useDropZone(onFile);
  const hintId = useId();
  useNoStrayDrops();

  function remove() {
    onRemove();
    chooseButton.current?.focus(); // the button that had focus is gone
  }

  return (
    <div className="upload">
      <div className={`form-card__preview upload__zone${dragging ? ' upload__zone--over' : ''}`} {...handlers} data-testid="image-drop-zone">
        <Preview upload={upload} urlPreview={urlPreview} onUrlPreviewFailed={onUrlPreviewFailed} touch={touch} onChoose={() => input.current?.click()} />
      </div>
      {children}
      <div className="upload__controls">
        <input
          ref={input}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          hidden
          tabIndex={-1}
          aria-label="Image file"
          onChange={(event) => {
            const file = pickFile(event.target.files);
            event.target.value = ''; // the same file chosen again is a new choice
            if (file) onFile(file);
          }}
        />
        <div className="upload__buttons">
          <button ref={chooseButton} type="button" className="button button--secondary" onClick={() => input.current?.click()} aria-describedby={hintId}>
            {touch ? 'Choose a photo' : 'Choose an image'}
          </button>
          {website ? (
            <button type="button" className="button button--secondary" aria-expanded={website.open} aria-controls={website.open ? website.panelId : undefined} onClick={website.onToggle}>
              From a website
            </button>
          ) : null}
          {upload.phase !== 'empty' ? (
            <button type="button" className="button button--secondary" onClick={remove}>
              {upload.phase === 'uploading' ? 'Cancel upload' : 'Remove image'}
            </button>
          ) : null}
        </div>
        {website?.open ? website.panel : null}
        <p id={hintId} className="field__hint">
          {touch ? FORMATS : `${FORMATS} You can also drop an image on the preview or paste one.`}
        </p>
        {upload.phase === 'uploading' ? <Progress upload={upload} /> : null}
        <p className="upload__status" role="status">
          {status}
        </p>
        {error ? (
          <p className="field__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
