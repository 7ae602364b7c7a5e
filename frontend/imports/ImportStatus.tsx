import { useAtomValue, useStore } from 'jotai';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { Import, ImportDetail } from '../../contract/imports.ts';
import { isImportOver } from '../../contract/import-rules.ts';
import { isApiError } from '../api/client.ts';
import { cancelImport, fetchImport, retryImport, undoImport } from '../api/imports.ts';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { showToast } from '../state/toasts.ts';
import { KIND_NAMES } from './file-preview.ts';
import { importProgressAtom } from '../state/import-progress.ts';
import { StopImportModal } from './StopImport.tsx';

/** How often a running import is read besides its live events. */
const READ_EVERY_MS = 5_000;

/** What the page calls each status (the list's badges too). */
export const STATUS_TEXT: Record<Import['status'], string> = { queued: 'Queued', running: 'Importing', done: 'Finished', failed: 'Failed', cancelled: 'Stopped' };

/** "About 3 minutes left", from how fast items went lately. */
export function timeLeft(samples: Array<{ at: number; processed: number }>, remaining: number): string | null {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at - first.at < 2_000 || last.processed <= first.processed || remaining <= 0) return null;
  const seconds = (remaining / (last.processed - first.processed)) * ((last.at - first.at) / 1000);
  if (seconds < 60) return 'Less than a minute left';
  if (seconds < 3600) return `About ${Math.round(seconds / 60)} minute${Math.round(seconds / 60) === 1 ? '' : 's'} left`;
  return `About ${Math.round(seconds / 3600)} hour${Math.round(seconds / 3600) === 1 ? '' : 's'} left`;
}

/** One import, live: its progress bar (done, failed, total, time left), failures with Retry, Stop, Undo. */
export function ImportStatus({ id, onGone, onChanged }: { id: number; onGone: () => void; onChanged: (next: Import) => void }) {
  const store = useStore();
  const live = useAtomValue(importProgressAtom).get(id);
  const [detail, setDetail] = useState<ImportDetail | null>(null);
  const [confirmUndo, setConfirmUndo] = useState(false);
  const [confirmStop, setConfirmStop] = useState(false);
  const [busy, setBusy] = useState(false);
  const samples = useRef<Array<{ at: number; processed: number }>>([]);

  const base = detail?.import;
  // The socket's figures, unless the last read is further along (an event missed while the socket
  // was away: progress is not in the change log, so nothing replays it).
  const ahead = (one: { status: string; done: number; failed: number }) => (isImportOver(one.status) ? 1e12 : 0) + one.done + one.failed;
  const latest = live && (!base || ahead(live) >= ahead(base)) ? live : base;
  const status = latest?.status;
  const total = latest?.total ?? 0;
  const done = latest?.done ?? 0;
  const failed = latest?.failed ?? 0;
  const finished = status !== undefined && isImportOver(status);

  useEffect(() => {
    let gone = false;
    const read = () =>
      void fetchImport(id).then(
        (next) => !gone && setDetail(next),
        (error: unknown) => console.error(error),
      );
    read();
    // While it runs, read it now and then too: the live events are the fast path, not the only one.
    const timer = finished ? undefined : setInterval(read, READ_EVERY_MS);
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, [id, finished]);

  // On each new count: a sample for the rate, and the parent told (with its latest onChanged).
  const countChanged = useEffectEvent(() => {
    samples.current = [...samples.current.filter((sample) => Date.now() - sample.at < 60_000), { at: Date.now(), processed: done + failed }];
    if (base && status) onChanged({ ...base, status, total, done, failed });
  });
  useEffect(() => countChanged(), [done, failed, status]);

  if (!base || !status)
    return (
      <p className="status status--loading" role="status">
        Loading the import…
      </p>
    );
  const left = finished ? null : timeLeft(samples.current, total - done - failed);

  async function retry() {
    setBusy(true);
    try {
      setDetail(await retryImport(id));
    } catch (error) {
      showToast(store, isApiError(error) ? error.message : 'Could not try again. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function stop() {
    try {
      setDetail(await cancelImport(id));
    } catch (error) {
      showToast(store, isApiError(error) ? error.message : 'Could not stop the import. Please try again.');
    }
  }

  async function undo() {
    try {
      const undone = await undoImport(id);
      const kept = undone.keptPins ? `; ${undone.keptPins} pin${undone.keptPins === 1 ? '' : 's'} you changed since were kept` : '';
      showToast(store, `Import undone: ${undone.removedPins} pin${undone.removedPins === 1 ? '' : 's'} and ${undone.removedBoards} board${undone.removedBoards === 1 ? '' : 's'} removed${kept}`);
      onGone();
    } catch (error) {
      showToast(store, isApiError(error) ? error.message : 'Could not undo the import. Please try again.');
    }
  }

  return (
    <section className="import-status" aria-labelledby={`import-${id}-title`} data-testid="import-status">
      <h3 id={`import-${id}-title`}>
        {KIND_NAMES[base.kind]} · {STATUS_TEXT[status]}
      </h3>
      <progress className="import-progress__bar" max={Math.max(total, 1)} value={done + failed} aria-label="Import progress" />
      <p className="import-status__counts" aria-live="polite">
        <span data-testid="import-done">{done.toLocaleString('en-US')} imported</span>
        {failed ? <span className="import-status__failed"> · {failed.toLocaleString('en-US')} failed</span> : null}
        <span> · {total.toLocaleString('en-US')} in all</span>
        {left ? <span> · {left}</span> : null}
      </p>
      <div className="import-status__actions">
        {finished && failed > 0 ? (
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void retry()}>
            Retry failed
          </button>
        ) : null}
        {status === 'running' ? (
          <button type="button" className="button button--secondary" onClick={() => setConfirmStop(true)}>
            Stop
          </button>
        ) : (
          <button type="button" className="button button--secondary" onClick={() => setConfirmUndo(true)}>
            {status === 'queued' ? 'Cancel' : 'Undo'}
          </button>
        )}
      </div>
      {detail?.failures.length ? (
        <details className="import-failures" open={finished}>
          <summary>
            Not imported ({detail.failures.length.toLocaleString('en-US')}
            {detail.failures.length >= 1000 ? ', the first 1,000' : ''})
          </summary>
          <ul>
            {detail.failures.map((failure, index) => (
              <li key={index}>
                <span className="import-failures__item">{failure.item}</span> — <span className="import-failures__reason">{failure.reason}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {confirmStop ? <StopImportModal made={done} onKeep={stop} onUndo={undo} onClose={() => setConfirmStop(false)} /> : null}
      {confirmUndo ? (
        <ConfirmModal
          title={status === 'queued' ? 'Cancel this import?' : 'Undo this import?'}
          message={status === 'queued' ? 'It has not started: nothing of it will be imported.' : 'The pins and boards it made are removed.'}
          detail={status === 'queued' ? undefined : 'Pins you edited since, and boards you renamed, shared or added other pins to, are kept.'}
          confirmLabel={status === 'queued' ? 'Cancel import' : 'Undo import'}
          cancelLabel="Keep it"
          onConfirm={undo}
          onClose={() => setConfirmUndo(false)}
        />
      ) : null}
    </section>
  );
}
