import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PinImage as StoredImage } from '../../contract/images.ts';
import { useWatchCard } from '../live/hooks.ts';
import { cardAspect } from './grid/aspect.ts';
import { useCardWidth } from './grid/MasonryGrid.tsx';
import { PinImage } from './PinImage.tsx';

type Props = {
  pinId: number;
  title: string;
  imageUrl: string;
  /** The stored image: the card takes its shape (./grid/aspect.ts) and shows its thumbnails. */
  image: StoredImage | null;
  /** Buttons shown over the image (hover on desktop, always on touch screens). */
  actions?: ReactNode;
  /** Extra content under the title (edit link, counts, buttons). */
  footer?: ReactNode;
};

/**
 * The width of a card outside a grid (never in practice: every card is a grid's), about a column
 * of the home grid on a desktop.
 */
const CARD_SIZES_FALLBACK = '236px';

/** One card of a masonry grid: the image and the title both link to the pin. */
export function PinCard({ pinId, title, imageUrl, image, actions, footer }: Props) {
  const to = `/pins/${pinId}`;
  const watchRef = useWatchCard<HTMLElement>(pinId); // live updates for the cards on screen
  const width = useCardWidth();
  return (
    <article className="pin-card" data-pin-id={pinId} ref={watchRef}>
      <div className="pin-card__media">
        <Link to={to} className="pin-card__image-link" tabIndex={-1} aria-hidden="true">
          <PinImage src={imageUrl} image={image} sizes={width ? `${width}px` : CARD_SIZES_FALLBACK} alt={title} aspect={cardAspect({ image })} />
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
