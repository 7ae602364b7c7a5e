import { useEffect } from 'react';
import { Link, useRouteError } from 'react-router';
import { MissingPageCode } from './MissingPageCode.tsx';
import { PageCodeMissing } from './page-code.ts';

/**
 * What a render error shows (docs/product.md §8). A page whose code could not be loaded (offline,
 * or a new version) is not an error of the app: it says so and comes by itself (docs/installable-app.md).
 */
export function ErrorPage() {
  const error = useRouteError();
  const missing = error instanceof PageCodeMissing ? error : null;
  useEffect(() => (missing ? console.warn(missing.message, missing.cause) : console.error(error)), [error, missing]);
  if (missing) return <MissingPageCode offline={missing.offline} />;
  return (
    <div className="status-page" role="alert">
      <h1>Unexpected Application Error!</h1>
      <p>Something broke while showing this page.</p>
      <p>
        <a href="/" className="button">
          Go to the home page
        </a>
      </p>
    </div>
  );
}

/** A full-page message with a way home; also used for a pin deleted while its page was open. */
export function NotFound({ title = 'Page not found', text = "We couldn't find what you were looking for.", role }: { title?: string; text?: string; role?: 'status' }) {
  return (
    <div className="status-page" role={role}>
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <Link to="/" className="button">
          Back to home
        </Link>
      </p>
    </div>
  );
}
