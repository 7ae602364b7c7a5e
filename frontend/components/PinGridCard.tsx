import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router';
import { useEntity } from '../hooks/useEntity.ts';
import { pinsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { CardMore, CardSave } from './CardSave.tsx';
import { useCardTabIndex } from './grid/card-focus.tsx';
import { HeartButton } from './HeartButton.tsx';
import { CardImageNote } from './ImageRepair.tsx';
import { PinCard } from './PinCard.tsx';

/** A pin card of the home, user and "your pins" grids: Save, a heart for signed-in users, the author's link, Edit for the owner. */
export function PinGridCard({ pinId }: { pinId: number }) {
  const pin = useEntity(pinsByIdAtom, pinId);
  const user = useAtomValue(sessionUserAtom);
  const tabIndex = useCardTabIndex();
  // The owner's card whose image could not be shown says why and links to mending it.
  const [broken, setBroken] = useState<string | null>(null);
  if (!pin) return null;
  const own = user?.id === pin.user_id;
  return (
    <PinCard
      pinId={pin.id}
      title={pin.title}
      imageUrl={pin.image_url}
      image={pin.image}
      altText={pin.alt_text}
      actions={
        <>
          <CardSave pin={pin} />
          {user ? <HeartButton pinId={pin.id} title={pin.title} /> : null}
        </>
      }
      more={<CardMore pin={pin} />}
      onImageFailed={() => setBroken(pin.image_url)}
      locked={pin.visibility === 'private'}
      note={own && !pin.image && broken === pin.image_url ? <CardImageNote pinId={pin.id} /> : null}
      footer={
        <>
          <Link to={`/users/${encodeURIComponent(pin.user.username)}`} className="pin-card__author" tabIndex={tabIndex}>
            {pin.user.username}
          </Link>
          {own ? (
            <Link to={`/pins/${pin.id}/edit`} className="pin-card__edit" aria-label={`Edit ${pin.title}`} tabIndex={tabIndex}>
              Edit
            </Link>
          ) : null}
        </>
      }
    />
  );
}

export const renderPinGridCard = (id: number) => <PinGridCard pinId={id} />;
