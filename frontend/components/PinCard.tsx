import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useWatchCard } from '../live/hooks.ts';
import { DEFAULT_ASPECT } from './grid/aspect.ts';
import { PinImage } from './PinImage.tsx';

type Props = {
  pinId: number;
  title: string;
  imageUrl: string;
  /** Buttons shown over the image (hover on desktop, always on touch screens). */
  actions?: ReactNode;
  /** Extra content under the title (edit link, counts, buttons). */
  footer?: ReactNode;
  /** Width / height of the image box (./grid/aspect.ts). */
  aspect?: number;
};

/** One card of a masonry grid: the image and the title both link to the pin. */
export function PinCard({ pinId, title, imageUrl, actions, footer, aspect = DEFAULT_ASPECT }: Props) {
  const to = `/pins/${pinId}`;
  const watchRef = useWatchCard<HTMLElement>(pinId); // live updates for the cards on screen
  return (
    <article className="pin-card" data-pin-id={pinId} ref={watchRef}>
      <div className="pin-card__media">
        <Link to={to} className="pin-card__image-link" tabIndex={-1} aria-hidden="true">
          <PinImage src={imageUrl} alt={title} aspect={aspect} />
        </Link>
        {actions ? <div className="pin-card__actions">{actions}</div> : null}
      </div>
      <div className="pin-card__body">
        <Link to={to} className="pin-card__title">
          {title}
        </Link>
        {footer ? <div className="pin-card__footer">{footer}</div> : null}
      </div>
    </article>
  );
}
