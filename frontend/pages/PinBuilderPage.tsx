import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Pin } from '../../contract/pins.ts';
import { SHARED_PARAM } from '../../contract/share-target.ts';
import { NewPinPage } from './NewPinPage.tsx';
import { builderPrefill, type BuilderPrefill } from './pin-builder/params.ts';
import { type SavedBoard, SavedScreen } from './pin-builder/SavedScreen.tsx';
import { SharedPictureUpload, useSharedPicture } from './pin-builder/SharedPicture.tsx';

/**
 * /pin-builder?url=&media=&description= (the bookmarklet's and other sites' "Save" link): the New
 * Pin form filled in from the link, with the page's pictures to choose from and a board; after Save,
 * "Saved to {board}" — in the bookmarklet's window (`popup=1`, or a window a script opened), which
 * then closes by itself. Signed-out visitors log in first and come back to the same link.
 * A share to the installed app (docs/installable-app.md) comes as ?title=&text=&url=&shared=: the
 * shared picture is uploaded first, and the form opens with it.
 */
export function PinBuilderPage() {
  const [search] = useSearchParams();
  const prefill = useMemo(() => builderPrefill(search, window.location.host), [search]);
  const popup = search.get('popup') === '1' || Boolean(window.opener);
  const shared = search.get(SHARED_PARAM);
  // A new link (another Save while this window is open) starts a new form.
  if (shared) return <SharedBuilder key={search.toString()} reference={shared} prefill={prefill} popup={popup} />;
  return <PinBuilder key={search.toString()} prefill={prefill} popup={popup} />;
}

function SharedBuilder({ reference, prefill, popup }: { reference: string; prefill: BuilderPrefill; popup: boolean }) {
  const state = useSharedPicture(reference);
  if (state.phase !== 'missing') return <SharedPictureUpload state={state} />;
  return (
    <>
      <p className="builder-share-notice" role="alert">
        {state.message}
      </p>
      <PinBuilder prefill={prefill} popup={popup} />
    </>
  );
}

function PinBuilder({ prefill, popup }: { prefill: BuilderPrefill; popup: boolean }) {
  const [saved, setSaved] = useState<{ pin: Pin; board: SavedBoard } | null>(null);
  if (saved) return <SavedScreen pin={saved.pin} board={saved.board} popup={popup} />;
  return <NewPinPage prefill={prefill} onSaved={(pin, board) => setSaved({ pin, board })} />;
}
