import { LoadFailed } from '../components/LoadFailed.tsx';
import { describeFailure, type LoadFailure } from '../state/load-failure.ts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useParams } from 'react-router';
import type { BoardPin } from '../../contract/boards.ts';
import { BOARD_LINK_MSG } from '../../contract/board-link-rules.ts';
import { fetchLinkedBoard, type LinkedBoardPage as LinkedPage } from '../api/board-links.ts';
import { ApiError } from '../api/client.ts';
import { NotFound } from '../components/ErrorPage.tsx';
import { cardAspect, cardFitsWhole } from '../components/grid/aspect.ts';
import { MasonryGrid, useCardWidth } from '../components/grid/MasonryGrid.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';
import { imageAlt } from '../components/image-alt.ts';
import { PinImage } from '../components/PinImage.tsx';
import { Empty } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import type { ListStatus } from '../state/lists.ts';
import { siteAtom } from '../state/site.ts';
import { GRID_CARD_SIZES } from '../../contract/thumbnails.ts';
import '../styles/board-share.css';

/** While the page is shown: not indexed, and its address (the secret) not sent on as a Referer. */
function useHeadMeta(name: string, content: string) {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = name;
    meta.content = content;
    document.head.append(meta);
    return () => meta.remove();
  }, [name, content]);
}

interface LinkedBoardState {
  board: LinkedPage['board'] | null;
  pins: BoardPin[];
  nextCursor: string | null;
  status: ListStatus;
  failure?: LoadFailure;
}

/**
 * The board a secret link opens, page by page. Every read asks the server again, so a revoked link
 * (404) empties the page at its next read: the next page, or coming back to the tab.
 */
function useLinkedBoard(secret: string) {
  const [state, setState] = useState<LinkedBoardState>({ board: null, pins: [], nextCursor: null, status: 'loading' });
  const busy = useRef(false);
  const read = useCallback(
    async (cursor: string | null) => {
      if (busy.current) return;
      busy.current = true;
      setState((s) => ({ ...s, status: 'loading' }));
      try {
        const page = await fetchLinkedBoard(secret, { cursor });
        setState((s) => ({
          board: page.board,
          pins: cursor === null ? page.pins : [...s.pins, ...page.pins.filter((p) => !s.pins.some((have) => have.id === p.id))],
          nextCursor: page.nextCursor,
          status: 'ready',
        }));
      } catch (error) {
        const gone = error instanceof ApiError && error.status === 404;
        if (!gone) console.error(error);
        setState((s) => (gone ? { board: null, pins: [], nextCursor: null, status: 'notFound' } : { ...s, status: 'error', failure: describeFailure(error) }));
      } finally {
        busy.current = false;
      }
    },
    [secret],
  );
  useEffect(() => void read(null), [read]);
  useEffect(() => {
    const again = () => {
      if (document.visibilityState === 'visible') void read(null);
    };
    document.addEventListener('visibilitychange', again);
    return () => document.removeEventListener('visibilitychange', again);
  }, [read]);
  return { ...state, loadMore: () => void (state.nextCursor ? read(state.nextCursor) : undefined), reload: () => void read(null) };
}

/**
 * On a members-only site, /media/ shows a visitor a picture only with the link that shows it
 * (docs/site-access.md): its addresses carry the secret.
 */
function withLink(pin: BoardPin, secret: string): BoardPin {
  const add = (url: string) => (url.startsWith('/media/') ? `${url}?link=${encodeURIComponent(secret)}` : url);
  const image = pin.image && { ...pin.image, thumbnails: Object.fromEntries(Object.entries(pin.image.thumbnails).map(([size, url]) => [size, add(url)])) as typeof pin.image.thumbnails };
  return { ...pin, image_url: add(pin.image_url), image };
}

/** A pin as a link shows it: its picture and title, nothing to press. */
function LinkedPinCard({ pin: given, secret }: { pin: BoardPin; secret: string | null }) {
  const width = useCardWidth();
  const pin = secret === null ? given : withLink(given, secret);
  return (
    <article className="pin-card" data-pin-id={pin.id}>
      <div className="pin-card__media">
        <PinImage src={pin.image_url} image={pin.image} sizes={width ? `${width}px` : GRID_CARD_SIZES} alt={imageAlt(pin)} aspect={cardAspect(pin)} whole={cardFitsWhole(pin)} />
      </div>
      <div className="pin-card__body">
        <div className="pin-card__heading">
          <p className="pin-card__title">{pin.title}</p>
        </div>
      </div>
    </article>
  );
}

/** /b/:secret — a board shown read-only to whoever holds its link (docs/board-sharing.md). */
export function LinkedBoardPage() {
  const secret = useParams().secret ?? '';
  const view = useLinkedBoard(secret);
  useHeadMeta('robots', 'noindex, nofollow');
  useHeadMeta('referrer', 'no-referrer');
  useDocumentTitle(view.board?.name ?? 'Shared board');
  const { pins } = view;
  const byId = useMemo(() => new Map(pins.map((pin) => [pin.id, pin])), [pins]);
  const ids = useMemo(() => pins.map((pin) => pin.id), [pins]);
  const membersOnly = useAtomValue(siteAtom).visibility === 'members';
  const renderCard = useCallback(
    (id: number) => {
      const pin = byId.get(id);
      return pin ? <LinkedPinCard pin={pin} secret={membersOnly ? secret : null} /> : null;
    },
    [byId, membersOnly, secret],
  );
  if (view.status === 'notFound') return <NotFound title="Link not found" text={BOARD_LINK_MSG.notFound} />;
  if (!view.board) return view.status === 'error' ? <LoadFailed failure={view.failure} onRetry={view.reload} /> : <SkeletonGrid text="Loading board details..." />;
  const { board } = view;
  return (
    <>
      <header className="page-header">
        <div>
          <span className="linked-board__badge">Shared with a link · view only</span>
          <h1>{board.name}</h1>
        </div>
      </header>
      <p className="page-subtitle linked-board__note">
        {board.pin_count} {board.pin_count === 1 ? 'pin' : 'pins'}
      </p>
      {view.pins.length === 0 && !view.nextCursor ? (
        <Empty>
          <p>No pins in this board yet.</p>
        </Empty>
      ) : (
        <MasonryGrid
          label={`Pins in ${board.name}`}
          ids={ids}
          renderCard={renderCard}
          hasMore={view.nextCursor !== null}
          status={view.status}
          loadMore={view.loadMore}
          restoreKey={`link:${board.id}`}
        />
      )}
    </>
  );
}
