import { useState } from 'react';
import { Modal } from '../components/Modal.tsx';

type Props = {
  /** Pins the import has made so far, kept if the user stops it without undoing. */
  made: number;
  onKeep: () => Promise<void>;
  onUndo: () => Promise<void>;
  onClose: () => void;
};

/** Stopping a running import: keep what it made so far, or undo it; or let it go on. */
export function StopImportModal({ made, onKeep, onUndo, onClose }: Props) {
  const [busy, setBusy] = useState(false);
  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
      onClose();
    }
  }
  const pins = `${made.toLocaleString('en-US')} pin${made === 1 ? '' : 's'}`;
  return (
    <Modal title="Stop this import?" onClose={onClose} role="alertdialog" className="modal--confirm">
      <p className="modal__message">The items not imported yet are dropped. It has made {pins} so far.</p>
      <p className="modal__detail">Undo removes them and the boards it made; pins you edited since are kept.</p>
      <div className="modal__actions modal__actions--stacked">
        <button type="button" className="button button--secondary" onClick={() => void run(onKeep)} disabled={busy}>
          Stop and keep {pins}
        </button>
        <button type="button" className="button button--danger" onClick={() => void run(onUndo)} disabled={busy}>
          Stop and undo
        </button>
        <button type="button" className="button button--secondary" onClick={onClose} disabled={busy} data-autofocus>
          Keep importing
        </button>
      </div>
    </Modal>
  );
}
