import { useAtomValue } from 'jotai';
import { outboxCount } from '../../contract/messages.ts';
import { waitingEntriesAtom } from './atoms.ts';
import './outbox.css';

/**
 * "2 waiting to send": one chip for the whole outbox (docs/outbox.md), hidden while nothing waits.
 * The live region is always in the document, so a screen reader hears the count come and go.
 */
export function OutboxStatus() {
  const waiting = useAtomValue(waitingEntriesAtom).length;
  return (
    <div className="outbox-status" role="status" aria-live="polite">
      {waiting ? <span className="outbox-status__chip">{outboxCount(waiting)}</span> : null}
    </div>
  );
}
