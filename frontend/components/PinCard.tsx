import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PinImage as StoredImage } from '../../contract/images.ts';
import { GRID_CARD_SIZES } from '../../contract/thumbnails.ts';
import { useWatchCard } from '../live/hooks.ts';
import { cardAspect, cardFitsWhole } from './grid/aspect.ts';
import { useCardLinkProps } from './grid/card-focus.tsx';
import { useCardWidth } from './grid/MasonryGrid.tsx';
import { LockIcon } from './Icons.tsx';
import { imageAlt } from './image-alt.ts';
import { PinImage } from './PinImage.tsx';

/** What the lock on a private pin's card says to a screen reader and on hover. */
const PRIVATE_BADGE = 'Private pin';

type Props = {
  pinId: number;
  title: string;
  imageUrl: string;
  /** The stored image: the card takes its shape (./grid/aspect.ts) and shows its thumbnails. */
  image: StoredImage | null;
  /** The owner's alt text, where the list carries it (./image-alt.ts says what the image's `alt` is). */
  altText?: string | null | undefined;
  /** Buttons over the image, on screens with a pointer that hovers (shown on hover and focus). */
  actions?: ReactNode;
  /**
   * On touch screens, instead of `actions`: a button beside the title ("…"), so nothing covers the
   * image (a tap on the image opens the pin).
   */
  more?: ReactNode;
  /** Extra content under the title (edit link, counts, buttons). */
  footer?: ReactNode;
  /** A note over the foot of the image (the owner's "import failed" line). */
  note?: ReactNode;
  /** Told when the image could not be shown. */
  onImageFailed?: () => void;
  /** A private pin (docs/who-sees-what.md): a lock on its image says so. */
  locked?: boolean;
};

/** One card of a masonry grid: the image and the title both link to the pin. */
export function PinCard({ pinId, title, imageUrl, image, altText, actions, more, footer, note, onImageFailed, locked }: Props) {
  const to = `/pins/${pinId}`;
  const watchRef = useWatchCard<HTMLElement>(pinId); // live updates for the cards on screen
  const width = useCardWidth();
  const linkProps = useCardLinkProps();
  return (
    <article className="pin-card" data-pin-id={pinId} ref={watchRef}>
      <div className="pin-card__media">
        <Link to={to} className="pin-card__image-link" tabIndex={-1} aria-hidden="true">
          <PinImage
            src={imageUrl}
            image={image}
            sizes={width ? `${width}px` : GRID_CARD_SIZES}
            alt={imageAlt({ title, alt_text: altText, image })}
            aspect={cardAspect({ image })}
            whole={cardFitsWhole({ image })}
            onFailed={onImageFailed}
          />
        </Link>
        {locked ? (
          <span className="pin-card__lock" title={PRIVATE_BADGE}>
            <LockIcon />
            <span className="visually-hidden">{PRIVATE_BADGE}</span>
          </span>
        ) : null}
        {actions ? <div className="pin-card__actions">{actions}</div> : null}
        {/* Over the image's box, not under it: the note comes after the card is laid out (it is
            fetched), and a card that grew then moved every card below it (a layout shift). */}
        {note}
      </div>
      <div className="pin-card__body">
        <div className="pin-card__heading">
          {/* The link is the tap target (44 px high on touch screens); the text inside is clamped. */}
          <Link to={to} className="pin-card__title" {...linkProps}>
            <span className="pin-card__title-text">{title}</span>
          </Link>
          {more ? <div className="pin-card__more">{more}</div> : null}
        </div>
        {footer ? <div className="pin-card__footer">{footer}</div> : null}
      </div>
    </article>
  );
}
