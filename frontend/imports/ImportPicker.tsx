import { type DragEvent, useId, useState } from 'react';
import { IMPORT_LIMITS } from '../../contract/import-rules.ts';
import type { Import } from '../../contract/imports.ts';
import { isApiError } from '../api/client.ts';
import { startImport } from '../api/imports.ts';
import { type FilePreview, KIND_NAMES, previewFile } from './file-preview.ts';

const ACCEPT = '.html,.htm,.zip,text/html,application/zip';

const sizeOf = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Where a file is dropped, or chosen with the button. */
function DropZone({ inputId, onFile }: { inputId: string; onFile: (file: File) => void }) {
  const [dragging, setDragging] = useState(false);
  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  }
  return (
    <div
      className={`import-picker__drop${dragging ? ' import-picker__drop--over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <p>Drop a bookmark file (Pinback's Pinterest export, or a browser's), a Pinboard export or a ZIP of images here, or</p>
      <label className="button button--secondary" htmlFor={inputId}>
        Choose a file
      </label>
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept={ACCEPT}
        onChange={(event) => {
          const picked = event.target.files?.[0];
          if (picked) onFile(picked);
          event.target.value = '';
        }}
      />
    </div>
  );
}

/** Pick or drop a file, see what it is and how much is in it, then start: the upload shows its progress. */
export function ImportPicker({ onStarted }: { onStarted: (created: Import) => void }) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [sending, setSending] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function choose(next: File) {
    setFile(next);
    setError(null);
    setPreview(null);
    if (next.size > IMPORT_LIMITS.maxBytes) {
      setError('Import files can be at most 200 MB.');
      return;
    }
    setPreview(await previewFile(next));
  }

  async function start() {
    if (!file) return;
    setSending(0);
    setError(null);
    try {
      const created = await startImport(file, { onProgress: ({ loaded, total }) => setSending(total ? loaded / total : 0) });
      setFile(null);
      setPreview(null);
      onStarted(created);
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : 'Something went wrong.');
    } finally {
      setSending(null);
    }
  }

  return (
    <div className="import-picker">
      <DropZone inputId={inputId} onFile={(picked) => void choose(picked)} />
      {file ? (
        <div className="import-picker__chosen" aria-live="polite">
          <p className="import-picker__file">
            <strong>{file.name}</strong> · {sizeOf(file.size)}
          </p>
          {preview ? (
            <p className="import-picker__preview" data-testid="import-preview">
              <span className={`import-kind import-kind--${preview.kind}`}>{KIND_NAMES[preview.kind]}</span>
              {preview.kind === 'unknown' ? ` ${preview.detail}` : ` · ${preview.items.toLocaleString('en-US')} ${preview.kind === 'netscape' ? 'links' : 'images'} · ${preview.detail}`}
            </p>
          ) : error ? null : (
            <p>Reading the file…</p>
          )}
          {sending !== null ? <progress className="import-progress__bar" max={1} value={sending} aria-label="Sending the file" /> : null}
          <div className="import-picker__actions">
            <button type="button" className="button" disabled={!preview || preview.kind === 'unknown' || sending !== null} onClick={() => void start()}>
              {sending !== null ? `Sending… ${Math.round(sending * 100)}%` : 'Start import'}
            </button>
            <button
              type="button"
              className="button button--secondary"
              disabled={sending !== null}
              onClick={() => {
                setFile(null);
                setPreview(null);
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
