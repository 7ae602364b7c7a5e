import { useStore } from 'jotai';
import { useRef, useState } from 'react';
import type { DuplicateGroup } from '../../../contract/duplicates.ts';
import { fetchDuplicateGroups, mergePins, undoMerge } from '../../api/duplicates.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { Loading } from '../../components/Status.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { describeFailure, type LoadFailure } from '../../state/load-failure.ts';
import { showToast } from '../../state/toasts.ts';
import { DuplicateGroupCard } from './DuplicateGroupCard.tsx';
import './duplicates.css';

/**
 * Pages read per "Show more": a page walks a stretch of the reader's pins and may hold no group,
 * so the page reads on until it has some or this many came back empty.
 */
const PAGES_PER_LOOK = 5;

/** Reads pages from `from` until some groups come, or the walk ends, or PAGES_PER_LOOK came back empty. */
async function lookFrom(from: string | null): Promise<{ found: DuplicateGroup[]; next: string | null }> {
  const found: DuplicateGroup[] = [];
  let next = from;
  for (let page = 0; page < PAGES_PER_LOOK && found.length === 0; page++) {
    const answer = await fetchDuplicateGroups(next);
    found.push(...answer.groups);
    next = answer.nextCursor;
    if (next === null) break;
  }
  return { found, next };
}

/** The Duplicates page (docs/duplicates.md): groups of the reader's look-alike pins, each merged into the one kept, with Undo. */
export function DuplicatesPage() {
  useDocumentTitle('Duplicates');
  const store = useStore();
  const [groups, setGroups] = useState<DuplicateGroup[]>([]);
  const cursor = useRef<string | null>(null);
  const [more, setMore] = useState(false);
  const [looking, setLooking] = useState(false);
  const [moreFailure, setMoreFailure] = useState<LoadFailure | undefined>(undefined);

  async function look(from: string | null): Promise<DuplicateGroup[]> {
    const { found, next } = await lookFrom(from);
    cursor.current = next;
    setMore(next !== null);
    return found;
  }

  const { status, failure, reload } = useLoad(async () => setGroups(await look(null)), 'duplicates');

  async function showMore() {
    setLooking(true);
    setMoreFailure(undefined);
    try {
      const found = await look(cursor.current);
      setGroups((current) => [...current, ...found]);
    } catch (error) {
      console.error(error);
      setMoreFailure(describeFailure(error));
    } finally {
      setLooking(false);
    }
  }

  async function merge(group: DuplicateGroup, keepId: number) {
    const others = group.pins.filter((pin) => pin.id !== keepId).map((pin) => pin.id);
    const merged = await mergePins(keepId, others);
    const at = groups.indexOf(group);
    setGroups((current) => current.filter((other) => other !== group));
    const count = others.length;
    showToast(store, `Merged ${count} ${count === 1 ? 'pin' : 'pins'} into “${merged.kept.title}”`, {
      action: {
        label: 'Undo',
        run: async () => {
          try {
            await undoMerge(merged.mergeId);
            setGroups((current) => [...current.slice(0, at), group, ...current.slice(at)]);
            showToast(store, 'Merge undone');
          } catch (error) {
            console.error(error);
            showToast(store, 'Could not undo the merge. Please try again.');
          }
        },
      },
    });
  }

  return (
    <div className="duplicates-page">
      <header className="duplicates-page__header">
        <h1>Duplicates</h1>
        <p>Pins of yours with the same or nearly the same picture. Keep one: it takes the others’ boards, favorites and comments, and the others are deleted.</p>
      </header>
      {status === 'loading' && groups.length === 0 ? <Loading text="Looking for duplicates…" /> : null}
      {status === 'error' ? <LoadFailed title="Couldn't load your duplicates." failure={failure} onRetry={reload} /> : null}
      {status === 'ready' && groups.length === 0 && !more ? <p className="duplicates-page__empty">No duplicates among your pins.</p> : null}
      {groups.length > 0 ? (
        <ul className="duplicates-page__groups">
          {groups.map((group) => (
            <li key={group.pins.map((pin) => pin.id).join('-')}>
              <DuplicateGroupCard group={group} onMerge={(keepId) => merge(group, keepId)} />
            </li>
          ))}
        </ul>
      ) : null}
      {moreFailure ? <LoadFailed compact failure={moreFailure} /> : null}
      {status === 'ready' && more ? (
        <button type="button" className="button button--secondary duplicates-page__more" onClick={() => void showMore()} disabled={looking}>
          {looking ? 'Looking…' : groups.length === 0 ? 'Look further' : 'Show more'}
        </button>
      ) : null}
    </div>
  );
}
