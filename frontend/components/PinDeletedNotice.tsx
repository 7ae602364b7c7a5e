import { NotFound } from './ErrorPage.tsx';

export const PIN_DELETED_TEXT = 'This pin has been deleted.';

/** Shown on a pin's page when the pin was deleted while the page was open (or before a reload). */
export function PinDeletedNotice() {
  return <NotFound title="Pin deleted" text={PIN_DELETED_TEXT} role="status" />;
}
