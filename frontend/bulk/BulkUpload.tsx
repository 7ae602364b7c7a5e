import { useAtomValue, useStore } from 'jotai';
import { type DragEvent, useCallback, useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { IMPORT_LIMITS } from '../../contract/import-rules.ts';
import { IMAGE_TYPES } from '../api/images.ts';
import { updatePin } from '../api/pins.ts';
import { useBoardList } from '../hooks/useBoardList.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { visibleBoardsByIdAtom } from '../state/hidden.ts';
import { upsertPin } from '../state/pins.ts';
import { showToast } from '../state/toasts.ts';
import { BULK_MSG, BULK_PARALLEL, type BulkItem, sendItem } from './bulk-queue.ts';
import { BulkRow } from './BulkRow.tsx';
import './bulk.css';

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

  const patch = useCallback(
    (id: number, change: Partial<BulkItem>) => {
      const current = files.current.get(id);
      if (current) files.current.set(id, { ...current, ...change });
      setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
      if (change.pin) upsertPin(store, change.pin);
    },
    [store],
  );

  const pump = useCallback(() => {
    while (running.current < BULK_PARALLEL && queue.current.length) {
      const id = queue.current.shift() as number;
      const item = files.current.get(id);
      if (!item) continue;
      running.current += 1;
      void sendItem(
        item,
        boardRef.current,
        (change) => patch(id, change),
        () => files.current.get(id) ?? item,
      ).finally(() => {
        running.current -= 1;
        pump();
      });
    }
  }, [patch]);

  function add(list: FileList | File[]) {
    const picked = [...list];
    const room = IMPORT_LIMITS.bulkFiles - [...files.current.values()].filter((item) => item.phase !== 'done' && item.phase !== 'error' && item.phase !== 'seen').length;
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

  /** Save anyway on a row saved already: its pin is made from the upload kept. */
  function saveAnyway(id: number) {
    patch(id, { phase: 'waiting', saveAnyway: true, error: null });
    queue.current.push(id);
    pump();
  }

  /** Alt text typed after the pin was made is sent when the field is left (once per change). */
  function sendAltText(id: number) {
    const item = files.current.get(id);
    const altText = item?.altText?.trim() ?? '';
    if (!item?.pin || item.phase !== 'done' || altText === (item.sentAltText ?? '')) return;
    const pin = item.pin;
    patch(id, { sentAltText: altText });
    updatePin(pin.id, { title: pin.title, description: pin.description, altText: altText || null }).then(
      (updated) => patch(id, { pin: updated }),
      (error: unknown) => {
        console.error(error); // docs/product.md §8: failures are logged
        patch(id, { sentAltText: item.sentAltText ?? '' });
        showToast(store, `The alt text of ${item.file.name} could not be saved.`);
      },
    );
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length) add(event.dataTransfer.files);
  }

  const done = items.filter((item) => item.phase === 'done').length;
  const failed = items.filter((item) => item.phase === 'error').length;
  const seen = items.filter((item) => item.phase === 'seen').length;
  const finished = items.length > 0 && done + failed + seen === items.length;
  // Once per batch that finishes, with the counts it finished with.
  const announceBatch = useEffectEvent(() => {
    if (done) showToast(store, `${done} pin${done === 1 ? '' : 's'} created${failed ? `, ${failed} failed` : ''}${seen ? `, ${seen} saved already` : ''}`);
  });
  useEffect(() => {
    if (finished) announceBatch();
  }, [finished]);

  return (
    <section className="bulk" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="bulk__title">
        {board ? 'Add many images to this board' : 'Or add many images at once'}
      </h2>
      {board ? null : (
        <label className="bulk__board">
          <span>Into board</span>
          <select value={chosenBoard ?? ''} onChange={(event) => setChosenBoard(event.target.value ? Number(event.target.value) : null)} disabled={running.current > 0}>
            <option value="">No board</option>
            {boards.ids.map((id) => {
              const entry = boardsById[id];
              return entry ? (
                <option key={id} value={id}>
                  {entry.name}
                </option>
              ) : null;
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
        <label className="button button--secondary" htmlFor={inputId}>
          Choose images
        </label>
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
            {seen ? ` · ${seen} saved already` : ''}
          </p>
          <ul className="bulk__list" aria-label="Files being pinned">
            {items.map((item) => (
              <BulkRow
                key={item.id}
                item={item}
                onRetry={() => retry(item.id)}
                onSaveAnyway={() => saveAnyway(item.id)}
                onAltText={(altText) => patch(item.id, { altText })}
                onAltTextDone={() => sendAltText(item.id)}
              />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
