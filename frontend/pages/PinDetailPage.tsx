import { useAtomValue, useStore } from 'jotai';
import { useState, type CSSProperties } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Pin } from '../../contract/index.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { fetchPin } from '../api/pins.ts';
import { AddToBoard } from '../components/AddToBoard.tsx';
import { CommentSection } from '../components/CommentSection.tsx';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { DEFAULT_ASPECT } from '../components/grid/aspect.ts';
import { NotFound } from '../components/ErrorPage.tsx';
import { HeartIcon } from '../components/Icons.tsx';
import { PinImageNotice } from '../components/ImageRepair.tsx';
import { PinDeletedNotice } from '../components/PinDeletedNotice.tsx';
import { imageAlt } from '../components/image-alt.ts';
import { PinImage } from '../components/PinImage.tsx';
import { PinVisibility } from '../components/PinVisibility.tsx';
import { SavedFrom } from '../components/SavedFrom.tsx';
import { ShareButton } from '../components/ShareButton.tsx';
import { ViewersCount } from '../components/ViewersCount.tsx';
import { PinSkeleton } from '../components/grid/PageSkeleton.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { refavorite, useFavoriteToggle } from '../hooks/useFavoriteToggle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { useParamId } from '../hooks/useParamId.ts';
import { useWatchPins } from '../live/hooks.ts';
import { deletedPinIdsAtom, sessionUserAtom } from '../state/atoms.ts';
import { deleteLater } from '../state/deferred-deletes.ts';
import { hiddenPinIdsAtom, visiblePinsByIdAtom } from '../state/hidden.ts';
import { upsertPin } from '../state/pins.ts';
import { openSaveSheet } from '../state/save-sheet.ts';
import { showToast, undoAction } from '../state/toasts.ts';
import { MoreLikeThis } from '../search/MoreLikeThis.tsx';
import { TaggedText } from '../search/TaggedText.tsx';
import './pin-image-text.css';

const FAVORITED_POPUP = 'Favorited!';
const FAVORITED_POPUP_MS = 2000;

export function PinDetailPage() {
  const store = useStore();
  const id = useParamId('id');
  // A pin whose delete waits for its Undo reads as deleted (Back to its page shows the notice).
  const pin = useAtomValue(visiblePinsByIdAtom)[id ?? 0];
  const deletedHere = useAtomValue(deletedPinIdsAtom).has(id ?? 0);
  const deleted = useAtomValue(hiddenPinIdsAtom).has(id ?? 0) || deletedHere;
  useDocumentTitle(pin?.title ?? (deleted ? 'Pin deleted' : 'Pin'));
  useWatchPins(id === null ? [] : [id]); // likes and comments, live
  const { status, failure, reload } = useLoad(async () => {
    // An address that is no pin id shows "Pin not found" below without asking the server; throwing
    // here would reach useLoad's console.error as if something had failed.
    if (id === null) return;
    upsertPin(store, await fetchPin(id));
  }, `pin-${id}`);

  if (id === null) return <NotFound title="Pin not found" text="This pin does not exist or was deleted." />;
  if (!pin) {
    if (deleted) return <PinDeletedNotice />;
    // The very skeleton a pin's link showed before any script ran (grid/skeleton.ts).
    if (status === 'loading') return <PinSkeleton />;
    if (status === 'error') return <LoadFailed title={PIN_LOAD_FAILED} failure={failure} onRetry={reload} />;
    return <NotFound title="Pin not found" text="This pin does not exist or was deleted." />;
  }
  return <PinDetail pin={pin} />;
}

export const PIN_LOAD_FAILED = "Couldn't load this pin.";

/**
 * The page shows a stored image's 736 px thumbnail; the original opens on demand. (A pin without a
 * stored image already shows its original.) Only an address a pin may carry is linked.
 */
function OriginalImageLink({ pin }: { pin: Pin }) {
  if (!pin.image || !isAllowedImageUrl(pin.image_url, [window.location.host])) return null;
  return (
    <a className="pin-detail__original" href={pin.image_url} target="_blank" rel="noopener noreferrer">
      Open original image
    </a>
  );
}

/**
 * The image, at most as tall as the screen allows (--media-max-h in pin-page.css: the viewport on a
 * desktop, about 60 % of it on a phone, so the actions stay in the first screen), in a box known
 * before it loads: the stored image's shape, else a 4:5 box the image is fitted into. Nothing below
 * it moves when it arrives.
 */
function PinMedia({ pin, owner }: { pin: Pin; owner: boolean }) {
  const aspect = pin.image ? pin.image.width / pin.image.height : DEFAULT_ASPECT;
  const [broken, setBroken] = useState(false);
  return (
    <div className="pin-detail__media" style={{ '--aspect': String(aspect) } as CSSProperties}>
      <div className="pin-detail__frame">
        <PinImage src={pin.image_url} image={pin.image} alt={imageAlt(pin)} eager aspect={aspect} whole onFailed={() => setBroken(true)} />
        {/* Over the image's own box: telling the owner why it is missing moves nothing on the page. */}
        {owner && !pin.image ? <PinImageNotice pin={pin} broken={broken} /> : null}
      </div>
      <OriginalImageLink pin={pin} />
    </div>
  );
}

/**
 * The text recognised in the picture (docs/product.md "Alt text"), folded away: a quote card's or a
 * recipe's words, readable and selectable, for anyone and for a screen reader alike.
 */
function TextInImage({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <details className="pin-text">
      <summary className="pin-text__summary">Text in this image</summary>
      <p className="pin-text__body">{text}</p>
    </details>
  );
}

function ownerName(pin: Pin): string {
  return pin.user?.username || 'Unknown';
}

function PinDetail({ pin }: { pin: Pin }) {
  const store = useStore();
  const navigate = useNavigate();
  const user = useAtomValue(sessionUserAtom);
  const { favorited, busy, toggle } = useFavoriteToggle(pin.id);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const isOwner = user?.id === pin.user_id;
  const url = typeof window === 'undefined' ? `/pins/${pin.id}` : `${window.location.origin}/pins/${pin.id}`;

  async function onFavorite() {
    const result = await toggle();
    // docs/product.md §2: "Favorited!" for 2 seconds; as a toast, so it never covers the pin's title.
    if (result === 'added') showToast(store, FAVORITED_POPUP, { durationMs: FAVORITED_POPUP_MS });
    if (result === 'removed') showToast(store, 'Removed from favorites', { action: undoAction(store, () => refavorite(store, pin.id)) });
  }

  // Sent when the Undo toast goes (state/deferred-deletes.ts); hidden everywhere until then.
  async function onDelete() {
    await navigate('/pins');
    deleteLater(store, 'pin', pin.id, 'Pin deleted');
  }

  return (
    <div className="pin-detail-page">
      <article className="pin-detail">
        <PinMedia pin={pin} owner={isOwner} />
        <div className="pin-detail__info">
          <div className="pin-detail__toolbar">
            <ShareButton title={pin.title} url={url} />
            {/* Signed out: Save invites to log in, and the save finishes after it (SaveSheet.tsx). */}
            {!user ? (
              <button type="button" className="button pin-detail__save" onClick={() => openSaveSheet(store, pin)} aria-haspopup="dialog">
                Save
              </button>
            ) : null}
            {user ? (
              <>
                <AddToBoard pin={pin} />
                <button type="button" className={`button favorite-button${favorited ? ' button--secondary' : ''}`} onClick={() => void onFavorite()} disabled={busy} aria-pressed={favorited}>
                  {/* Both labels take the same cell, the other one hidden: the button keeps one size. */}
                  <span className="favorite-button__label" aria-hidden={favorited}>
                    Add To Favorites
                  </span>
                  <span className="favorite-button__label" aria-hidden={!favorited}>
                    Remove from Favorites
                  </span>
                </button>
              </>
            ) : null}
          </div>
          <h1 className="pin-detail__title">{pin.title}</h1>
          <p className="pin-detail__owner">Pin owner: {pin.user?.username ? <Link to={`/users/${encodeURIComponent(pin.user.username)}`}>{ownerName(pin)}</Link> : ownerName(pin)}</p>
          <p className="pin-detail__likes">
            <HeartIcon filled className="pin-detail__likes-icon" />
            <span>
              {pin.likes_count} {pin.likes_count === 1 ? 'favorite' : 'favorites'}
            </span>
            <ViewersCount pinId={pin.id} />
          </p>
          <SavedFrom sourceUrl={pin.source_url} />
          <PinVisibility pin={pin} owner={isOwner} />
          {pin.description ? (
            <p className="pin-detail__description">
              <TaggedText text={pin.description} tags={pin.tags} />
            </p>
          ) : null}
          <TextInImage text={pin.image?.text} />
          {isOwner ? (
            <div className="pin-detail__owner-actions">
              <Link to={`/pins/${pin.id}/edit`} className="button button--secondary">
                Edit This Pin
              </Link>
              <button type="button" className="button button--danger" onClick={() => setConfirmDelete(true)}>
                Delete This Pin
              </button>
            </div>
          ) : null}
          <CommentSection pinId={pin.id} />
        </div>
      </article>
      <MoreLikeThis key={pin.id} pinId={pin.id} />
      {confirmDelete ? <ConfirmModal title="Delete Pin" message="Are you sure you want to delete this pin?" onConfirm={onDelete} onClose={() => setConfirmDelete(false)} /> : null}
    </div>
  );
}
