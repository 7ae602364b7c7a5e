import { Link } from 'react-router';

export const PIN_DELETED_TEXT = 'This pin has been deleted.';

/** Shown on a pin's page when the pin was deleted while the page was open (or before a reload). */
export function PinDeletedNotice() {
  return (
    <div className="status-page" role="status">
      <h1>Pin deleted</h1>
      <p>{PIN_DELETED_TEXT}</p>
      <p>
        <Link to="/" className="button">
          Back to home
        </Link>
      </p>
    </div>
  );
}
