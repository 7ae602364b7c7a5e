import { useAtomValue, useStore } from 'jotai';
import { type DragEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { IMPORT_LIMITS } from '../../contract/import-rules.ts';
import { IMAGE_TYPES } from '../api/images.ts';
import { useBoardList } from '../hooks/useBoardList.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { visibleBoardsByIdAtom } from '../state/hidden.ts';
import { upsertPin } from '../state/pins.ts';
import { showToast } from '../state/toasts.ts';
import { BULK_MSG, BULK_PARALLEL, type BulkItem, sendItem } from './bulk-queue.ts';
import './bulk.css';

const PHASE_TEXT: Record<BulkItem['phase'], string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  saving: 'Saving',
  done: 'Pinned',
  error: 'Failed',
  paused: 'Waiting to retry',
};

let nextId = 1;

/**
 * Drop or pick many images at once (at most 200): one pin per file, titled from its name, each
 * with its own progress and error, all into one board — the page's own (a board page) or the one
 * chosen here (the New Pin page).
 */
export function BulkUpload({ board }: { board?: { id: number; name: string } }) {
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const boards = useBoardList(board ? undefined : user?.id, 'keep');
  const boardsById = useAtomValue(visibleBoardsByIdAtom);
  const [items, setItems] = useState<BulkItem[]>([]);
  const [chosenBoard, setChosenBoard] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const files = useRef(new Map<number, BulkItem>());
  const queue = useRef<number[]>([]);
  const running = useRef(0);
  const boardId = board ? board.id : chosenBoard;
  const boardRef = useRef(boardId);
  boardRef.current = boardId;

  const patch = useCallback((id: number, change: Partial<BulkItem>) => {
    const current = files.current.get(id);
    if (current) files.current.set(id, { ...current, ...change });
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
    if (change.pin) upsertPin(store, change.pin);
  }, [store]);

  const pump = useCallback(() => {
    while (running.current < BULK_PARALLEL && queue.current.length) {
      const id = queue.current.shift() as number;
      const item = files.current.get(id);
      if (!item) continue;
      running.current += 1;
      void sendItem(item, boardRef.current, (change) => patch(id, change)).finally(() => {
        running.current -= 1;
        pump();
      });
    }
  }, [patch]);

  function add(list: FileList | File[]) {
    const picked = [...list];
    const room = IMPORT_LIMITS.bulkFiles - [...files.current.values()].filter((item) => item.phase !== 'done' && item.phase !== 'error').length;
    if (picked.length > room) showToast(store, BULK_MSG.tooMany);
    const added = picked.slice(0, Math.max(0, room)).map((file): BulkItem => ({ id: nextId++, file, phase: 'waiting', progress: 0, error: null, pin: null, retryAt: null }));
    for (const item of added) {
      files.current.set(item.id, item);
      queue.current.push(item.id);
    }
    setItems((current) => [...current, ...added]);
    pump();
  }

  function retry(id: number) {
    patch(id, { phase: 'waiting', error: null, progress: 0 });
    queue.current.push(id);
    pump();
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length) add(event.dataTransfer.files);
  }

  const done = items.filter((item) => item.phase === 'done').length;
  const failed = items.filter((item) => item.phase === 'error').length;
  const finished = items.length > 0 && done + failed === items.length;
  useEffect(() => {
    if (finished && done) showToast(store, `${done} pin${done === 1 ? '' : 's'} created${failed ? `, ${failed} failed` : ''}`);
  }, [finished]); // once per batch that finishes

  return (
    <section className="bulk" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="bulk__title">{board ? 'Add many images to this board' : 'Or add many images at once'}</h2>
      {board ? null : (
        <label className="bulk__board">
          <span>Into board</span>
          <select value={chosenBoard ?? ''} onChange={(event) => setChosenBoard(event.target.value ? Number(event.target.value) : null)} disabled={running.current > 0}>
            <option value="">No board</option>
            {boards.ids.map((id) => {
              const entry = boardsById[id];
              return entry ? <option key={id} value={id}>{entry.name}</option> : null;
            })}
          </select>
        </label>
      )}
      <div
        className={`bulk__drop${dragging ? ' bulk__drop--over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="bulk-drop"
      >
        <p>Drop up to {IMPORT_LIMITS.bulkFiles} images here, or</p>
        <label className="button button--secondary" htmlFor={inputId}>Choose images</label>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          multiple
          accept={IMAGE_TYPES.join(',')}
          onChange={(event) => {
            if (event.target.files?.length) add(event.target.files);
            event.target.value = '';
          }}
        />
      </div>
      {items.length ? (
        <>
          <p className="bulk__summary" aria-live="polite">
            {done} of {items.length} pinned{failed ? ` · ${failed} failed` : ''}
          </p>
          <ul className="bulk__list" aria-label="Files being pinned">
            {items.map((item) => (
              <li key={item.id} className={`bulk__item bulk__item--${item.phase}`} data-phase={item.phase}>
                <span className="bulk__name" title={item.file.name}>{item.file.name}</span>
                <progress className="bulk__progress" max={1} value={item.phase === 'done' ? 1 : item.progress} aria-label={`${item.file.name}: ${PHASE_TEXT[item.phase]}`} />
                <span className="bulk__phase">
                  {item.phase === 'done' && item.pin ? <Link to={`/pins/${item.pin.id}`}>{PHASE_TEXT.done}</Link> : PHASE_TEXT[item.phase]}
                  {item.phase === 'uploading' ? ` ${Math.round(item.progress * 100)}%` : ''}
                </span>
                {item.error ? <span className="bulk__error" role={item.phase === 'error' ? 'alert' : undefined}>{item.error}</span> : null}
                {item.phase === 'error' ? (
                  <button type="button" className="button button--small" onClick={() => retry(item.id)}>Retry</button>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
