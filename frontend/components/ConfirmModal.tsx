import { useState } from 'react';
import { Modal } from './Modal.tsx';

type Props = {
  title: string;
  message: string;
  /** A second line that says more (e.g. what is not affected). */
  detail?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Performs the action; the modal closes when it settles (docs/product.md §4: Yes deletes and closes). */
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
};

export function ConfirmModal({ title, message, detail, confirmLabel = 'Yes', cancelLabel = 'No', onConfirm, onClose }: Props) {
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onClose();
    }
  }
  return (
    <Modal title={title} onClose={onClose} role="alertdialog" className="modal--confirm">
      <p className="modal__message">{message}</p>
      {detail ? <p className="modal__detail">{detail}</p> : null}
      <div className="modal__actions">
        <button type="button" className="button button--danger" onClick={() => void confirm()} disabled={busy}>
          {confirmLabel}
        </button>
        <button type="button" className="button button--secondary" onClick={onClose} disabled={busy} data-autofocus>
          {cancelLabel}
        </button>
      </div>
    </Modal>
  );
}
