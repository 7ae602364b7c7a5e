import { Link } from 'react-router';
import { LIMITS } from '../../../contract/limits.ts';
import { useEntity } from '../../hooks/useEntity.ts';
import { boardsByIdAtom } from '../../state/atoms.ts';
import { formatPinCount } from '../../state/boards.ts';
import { PinImage } from '../PinImage.tsx';
import { MemberAvatars } from './MemberAvatars.tsx';

/** The cover box (.board-card__cover): a stored image fills it, cropped. */
const COVER_ASPECT = 4 / 3;
/** A cover's width (.board-grid): two columns on a phone, else columns of about 220–260 px. */
const COVER_SIZES = '(max-width: 520px) calc(50vw - 22px), 260px';
/** A collage tile: about half a cover's width. */
const TILE_SIZES = '(max-width: 520px) calc(25vw - 11px), 130px';

/** A board card: a collage of its newest pins (up to 4, or "No Image"), its name and its pin count. */
export function BoardCard({ boardId }: { boardId: number }) {
  const board = useEntity(boardsByIdAtom, boardId);
  if (!board) return null;
  const covers = board.pins.slice(0, LIMITS.boardCovers);
  return (
    <li className="board-card">
      <Link to={`/boards/${board.id}`} className="board-card__link">
        <div className={`board-card__cover board-card__cover--${covers.length}`}>
          {covers.length > 0 ? (
            covers.map((cover, index) => (
              <div key={cover.id} className="board-card__tile">
                <PinImage
                  src={cover.image_url}
                  image={cover.image}
                  // The first tile is the whole cover, or its larger half; the others a quarter.
                  sizes={index === 0 && covers.length < 4 ? COVER_SIZES : TILE_SIZES}
                  aspect={covers.length === 1 && cover.image ? COVER_ASPECT : undefined}
                  alt=""
                />
              </div>
            ))
          ) : (
            <div className="board-card__no-image">No Image</div>
          )}
        </div>
        <div className="board-card__body">
          <span className="board-card__name">{board.name}</span>
          <span className="board-card__count" aria-label={`${board.pin_count} ${board.pin_count === 1 ? 'pin' : 'pins'}`}>
            {formatPinCount(board.pin_count)}
          </span>
        </div>
        {board.member_count > 1 ? (
          <div className="board-card__shared">
            <span className="shared-label">Shared</span>
            <MemberAvatars board={board} />
          </div>
        ) : null}
      </Link>
    </li>
  );
}
