import { useStore } from 'jotai';
import { MSG } from '../../contract/messages.ts';
import { refavorite, useFavoriteToggle } from '../hooks/useFavoriteToggle.ts';
import { showToast, undoAction } from '../state/toasts.ts';
import { useCardTabIndex } from './grid/card-focus.tsx';
import { HeartIcon } from './Icons.tsx';

/** The heart toggle on grid cards; renders nothing for anonymous visitors. */
export function HeartButton({ pinId, title }: { pinId: number; title: string }) {
  const store = useStore();
  const { signedIn, favorited, waiting, busy, toggle } = useFavoriteToggle(pinId);
  const tabIndex = useCardTabIndex();
  if (!signedIn) return null;
  async function onToggle() {
    if ((await toggle()) === 'removed') showToast(store, `Removed ${title} from favorites`, { action: undoAction(store, () => refavorite(store, pinId)) });
  }
  // A change still in the outbox (docs/outbox.md) shows as made, and says it waits.
  const label = `${favorited ? `Remove ${title} from favorites` : `Add ${title} to favorites`}${waiting ? ` (${MSG.outboxWaiting})` : ''}`;
  return (
    <button
      type="button"
      className={`icon-button heart-button${favorited ? ' heart-button--on' : ''}${waiting ? ' heart-button--waiting' : ''}`}
      aria-pressed={favorited}
      aria-label={label}
      title={waiting ? MSG.outboxWaiting : favorited ? 'Remove from favorites' : 'Add to favorites'}
      disabled={busy}
      onClick={() => void onToggle()}
      tabIndex={tabIndex}
    >
      <HeartIcon filled={favorited} />
    </button>
  );
}
