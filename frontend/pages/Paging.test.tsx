// Lists at scale (docs/paging.md) on the client: pages fetched by cursor and appended without
// duplicates, a refused cursor starting over, deletions leaving the loaded pages, virtualization,
// and each screen asking for its own list (your pins by ?userId=, boards with their counts).
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Pin } from '../../contract/index.ts';
import { dropDeletedPin } from '../live/apply.ts';
import { setTestLayout } from '../test-support/layout.ts';
import { alice, bob, gridCardIds, makeBoard, makeComment, makePin, pagedReply, renderApp, type Call } from '../test-support/render.tsx';

const pinsUpTo = (n: number, from = 1) => Array.from({ length: n - from + 1 }, (_, i) => makePin(from + i, bob));
const shuffles = (calls: Call[]) => calls.filter((c) => c.path === '/api/pins/' && c.query.get('order') === 'shuffle');
/** The home page's second request: the newest pin when the visit began. */
const newest = (call: Call) => call.query.get('order') === 'newest';

async function scrollWindowTo(y: number) {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
  await act(async () => {
    window.dispatchEvent(new Event('scroll'));
    await new Promise((resolve) => setTimeout(resolve, 120)); // masonic follows the scroll at 12 fps
  });
}

describe('paged grids', () => {
  it('home: the next pages are fetched with the cursor and appended, skipping pins already listed; one seed for the visit', async () => {
    const pages: Record<string, { pins: Pin[]; nextCursor: string | null }> = {
      '': { pins: pinsUpTo(50), nextCursor: 'p2' },
      p2: { pins: pinsUpTo(100, 45), nextCursor: 'p3' }, // overlaps page one: the data moved meanwhile
      p3: { pins: pinsUpTo(130, 101), nextCursor: null },
    };
    const { calls } = renderApp('/', {
      handlers: { 'GET /api/pins/': (call) => ({ body: newest(call) ? { pins: [], nextCursor: null } : pages[call.query.get('cursor') ?? ''] }) },
    });
    await waitFor(() => expect(gridCardIds()).toHaveLength(130));
    expect(new Set(gridCardIds()).size).toBe(130);
    expect(gridCardIds()).toEqual(pinsUpTo(130).map((p) => p.id));
    expect(shuffles(calls).map((c) => c.query.get('cursor'))).toEqual([null, 'p2', 'p3']);
    expect(new Set(shuffles(calls).map((c) => c.query.get('seed'))).size).toBe(1);
  });

  it('while more pages are to come only whole rows are laid out; the last page shows the rest', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    renderApp('/', {
      handlers: {
        'GET /api/pins/': async (call) => {
          if (newest(call)) return { body: { pins: [], nextCursor: null } };
          if (!call.query.get('cursor')) return { body: { pins: pinsUpTo(10), nextCursor: 'p2' } };
          await gate;
          return { body: { pins: pinsUpTo(13, 11), nextCursor: null } };
        },
      },
    });
    // Four columns at this width: 10 pins make two whole rows and two left over, held back.
    await waitFor(() => expect(gridCardIds()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]));
    release();
    await waitFor(() => expect(gridCardIds()).toHaveLength(13));
  });

  it('a refused cursor (400) starts again from page one; refused again, the grid offers "Try again"', async () => {
    let refusals = 1;
    const serve = pagedReply('pins', pinsUpTo(80), 50);
    const { calls } = renderApp('/', {
      handlers: {
        'GET /api/pins/': (call) => {
          if (newest(call)) return { body: { pins: [], nextCursor: null } };
          if (call.query.get('cursor') && refusals > 0) {
            refusals -= 1;
            return { status: 400, body: { message: 'The cursor is not valid for this list.', errors: [], fields: {} } };
          }
          return serve(call);
        },
      },
    });
    await waitFor(() => expect(gridCardIds()).toHaveLength(80));
    expect(shuffles(calls).map((c) => c.query.get('cursor'))).toEqual([null, 'after:50', null, 'after:50']);
    expect(new Set(gridCardIds()).size).toBe(80);
  });

  it('a cursor refused twice in a row stops with "Try again" instead of looping', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // the refusal is logged (docs/product.md §8)
    const serve = pagedReply('pins', pinsUpTo(80), 50);
    const { calls, ui } = renderApp('/', {
      handlers: {
        'GET /api/pins/': (call) =>
          newest(call) ? { body: { pins: [], nextCursor: null } } : call.query.get('cursor') ? { status: 400, body: { message: 'Bad cursor', errors: [], fields: {} } } : serve(call),
      },
    });
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(shuffles(calls).map((c) => c.query.get('cursor'))).toEqual([null, 'after:50', null, 'after:50']);
    await ui.click(retry);
    await waitFor(() => expect(shuffles(calls)).toHaveLength(5));
  });

  it('a deleted pin leaves the loaded pages: only the cards below it in its column move up', async () => {
    setTestLayout({ cardHeight: 100 });
    const { store } = renderApp('/', {
      handlers: { 'GET /api/pins/': (call) => ({ body: { pins: newest(call) ? [] : pinsUpTo(8), nextCursor: null } }) },
    });
    await waitFor(() => expect(gridCardIds()).toHaveLength(8));
    const place = (id: number) => {
      const cell = document.querySelector(`[data-pin-id="${id}"]`)?.closest<HTMLElement>('[role="listitem"]');
      return `${cell?.style.left}/${cell?.style.top}`;
    };
    const before = Object.fromEntries(pinsUpTo(8).map((p) => [p.id, place(p.id)]));
    act(() => dropDeletedPin(store, 2));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pin 2' })).toBeNull());
    expect(gridCardIds().sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 7, 8]);
    // Pin 6 was under pin 2 (same column): it takes its place; every other card stays put.
    await waitFor(() => expect(place(6)).toBe(before[2]));
    for (const id of [1, 3, 4, 5, 7, 8]) expect(place(id)).toBe(before[id]);
  });

  it('only the cards near the viewport are mounted, however far the reader scrolls', async () => {
    setTestLayout({ cardHeight: 300 });
    renderApp('/', {
      handlers: { 'GET /api/pins/': (call) => (newest(call) ? { body: { pins: [], nextCursor: null } } : pagedReply('pins', pinsUpTo(600), 100)(call)) },
    });
    await waitFor(() => expect(document.querySelectorAll('article[data-pin-id]').length).toBeGreaterThan(0));
    let mostMounted = 0;
    let furthest = 0;
    for (let y = 0; y <= 40_000; y += 2_000) {
      await scrollWindowTo(y);
      mostMounted = Math.max(mostMounted, document.querySelectorAll('article[data-pin-id]').length);
      furthest = Math.max(furthest, ...gridCardIds());
    }
    // 40,000 px is about 125 rows of four 316 px cards: some 500 pins scrolled past.
    expect(furthest).toBeGreaterThan(400);
    expect(mostMounted).toBeLessThan(80);
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  }, 30_000);

  it('Back to home keeps the visit: same seed, no new page one; the logo starts a new visit', async () => {
    const { calls, ui, router } = renderApp('/', {
      handlers: {
        'GET /api/pins/': (call) => ({ body: { pins: newest(call) ? [] : pinsUpTo(6), nextCursor: null } }),
        'GET /api/pins/3': { body: makePin(3, bob) },
        'GET /api/comments/pins/3/comments': { body: { comments: [], nextCursor: null } },
      },
    });
    await ui.click(await screen.findByRole('link', { name: 'Pin 3' }));
    await screen.findByRole('heading', { name: 'Pin 3' });
    await act(() => router.navigate(-1));
    await screen.findByRole('link', { name: 'Pin 3' });
    expect(shuffles(calls)).toHaveLength(1);
    await ui.click(screen.getByRole('link', { name: 'Pinboard' }));
    await waitFor(() => expect(shuffles(calls)).toHaveLength(2));
    const [first, second] = shuffles(calls);
    expect(second?.query.get('seed')).not.toBe(first?.query.get('seed'));
  });
});

describe('paged lists of the other screens', () => {
  it('your pins: asks the server for the signed-in user’s pins (?userId=), page by page', async () => {
    const mine = Array.from({ length: 60 }, (_, i) => makePin(i + 1, alice));
    const { calls } = renderApp('/pins', { user: alice, handlers: { 'GET /api/pins/': pagedReply('pins', mine, 50) } });
    await waitFor(() => expect(gridCardIds()).toHaveLength(60));
    const asked = calls.filter((c) => c.path === '/api/pins/');
    expect(asked.map((c) => [c.query.get('userId'), c.query.get('cursor')])).toEqual([
      [String(alice.id), null],
      [String(alice.id), 'after:50'],
    ]);
  });

  it('boards: the cover is the newest pin, the count is pin_count with two digits ("01"); more boards on "Show more boards"', async () => {
    const boards = [
      { ...makeBoard(1, [makePin(5)], alice, 'Cats'), pin_count: 1 },
      { ...makeBoard(2, [makePin(9), makePin(8)], alice, 'Big'), pin_count: 123 },
      ...Array.from({ length: 3 }, (_, i) => makeBoard(10 + i, [], alice, `Board ${10 + i}`)),
    ];
    const { ui } = renderApp('/boards', { user: alice, handlers: { 'GET /api/boards/': pagedReply('boards', boards, 3) } });
    const list = await screen.findByRole('list', { name: 'Your boards' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(cards[0]?.textContent).toContain('Cats');
    expect(cards[0]?.textContent).toContain('01');
    expect(cards[0]?.querySelector('img')?.getAttribute('src')).toBe('/seed-images/5.svg');
    expect(cards[1]?.textContent).toContain('123');
    expect(cards[1]?.querySelector('img')?.getAttribute('src')).toBe('/seed-images/9.svg');
    expect(cards[2]?.textContent).toContain('No Image');
    await ui.click(screen.getByRole('button', { name: 'Show more boards' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(5));
    expect(screen.queryByRole('button', { name: 'Show more boards' })).toBeNull();
  });

  it('board page: its pins page by cursor; "Delete Pin" removes one and page one is loaded again', async () => {
    let pins = pinsUpTo(70);
    const serve = pagedReply(
      'pins',
      () => pins,
      50,
      () => ({ ...makeBoard(3, [], alice, 'Ideas'), pin_count: pins.length }),
    );
    const { ui, calls } = renderApp('/boards/3', {
      user: alice,
      handlers: {
        'GET /api/boards/3': serve,
        'DELETE /api/boards/3/pins/60': () => {
          pins = pins.filter((p) => p.id !== 60);
          return { body: { message: 'Removed', board_id: 3, pin_id: 60 } };
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Ideas' })).toBeTruthy();
    expect(screen.getByText('70 pins')).toBeTruthy();
    await waitFor(() => expect(gridCardIds()).toHaveLength(70));
    await ui.click(await screen.findByRole('button', { name: 'Delete Pin Pin 60 from this board' }));
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pin 60' })).toBeNull());
    expect(screen.getByText('69 pins')).toBeTruthy();
    const boardCalls = calls.filter((c) => c.method === 'GET' && c.path === '/api/boards/3').map((c) => c.query.get('cursor'));
    expect(boardCalls.slice(0, 3)).toEqual([null, 'after:50', null]); // page one again after the delete
  });

  it('comments: newest first, more on "Show more comments"', async () => {
    const comments = Array.from({ length: 7 }, (_, i) => makeComment(20 - i, 5, bob, `Comment ${20 - i}`, new Date(Date.UTC(2025, 6, 20 - i)).toISOString()));
    const { ui } = renderApp('/pins/5', {
      handlers: { 'GET /api/pins/5': { body: makePin(5, bob) }, 'GET /api/comments/pins/5/comments': pagedReply('comments', comments, 5) },
    });
    const section = await screen.findByRole('region', { name: /Comments/ });
    await within(section).findByText('Comment 20');
    expect(within(section).getAllByRole('listitem')).toHaveLength(5);
    await ui.click(within(section).getByRole('button', { name: 'Show more comments' }));
    await within(section).findByText('Comment 14');
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.comment__text')?.textContent),
    ).toEqual(comments.map((c) => c.text));
  });
});
