// The Duplicates page (docs/duplicates.md): groups of the reader's look-alike pins as card rows,
// "Keep this one", Merge with a toast and Undo; its empty, loading-failed and walk-further states.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DuplicateGroup } from '../../../contract/duplicates.ts';
import { alice, errorBody, makePin, renderApp, type Call, type Handler } from '../../test-support/render.tsx';

const newer = makePin(12, alice, { title: 'Lighthouse (again)' });
const older = makePin(5, alice, { title: 'Lighthouse' });
const group: DuplicateGroup = { pins: [newer, older] };

function open(handlers: Record<string, Handler>) {
  return renderApp('/duplicates', { user: alice, handlers });
}

describe('Duplicates page', () => {
  it('lists a group, keeps the chosen pin, merges the other, and Undo brings it back', async () => {
    const { ui, sent } = open({
      'GET /api/duplicates': { body: { groups: [group], nextCursor: null } },
      'POST /api/duplicates/merge': (call: Call) => ({ body: { kept: older, merged: (call.body as { merge: number[] }).merge, mergeId: 77, undoUntil: '2026-03-03T12:15:00.000Z' } }),
      'POST /api/duplicates/merge/undo': { body: { restored: [newer], kept: older } },
    });
    const card = await screen.findByRole('region', { name: '2 look-alike pins' });
    // The newest is kept unless the reader says otherwise.
    expect(within(card).getByRole('radio', { name: 'Keep “Lighthouse (again)”' })).toHaveProperty('checked', true);
    await ui.click(within(card).getByRole('radio', { name: 'Keep “Lighthouse”' }));
    await ui.click(within(card).getByRole('button', { name: 'Merge 2 pins' }));

    await waitFor(() => expect(screen.queryByRole('region', { name: '2 look-alike pins' })).toBeNull());
    expect(sent('POST', '/api/duplicates/merge')[0]?.body).toEqual({ keep: older.id, merge: [newer.id] });
    expect(await screen.findByText('Merged 1 pin into “Lighthouse”')).toBeTruthy();

    await ui.click(screen.getByRole('button', { name: 'Undo' }));
    expect(sent('POST', '/api/duplicates/merge/undo')[0]?.body).toEqual({ mergeId: 77 });
    expect(await screen.findByRole('region', { name: '2 look-alike pins' })).toBeTruthy();
  });

  it('says so when there are none, after walking every page', async () => {
    open({
      'GET /api/duplicates': (call: Call) => ({ body: { groups: [], nextCursor: call.query.get('cursor') === null ? 'next' : null } }),
    });
    expect(await screen.findByText('No duplicates among your pins.')).toBeTruthy();
  });

  it('a failed load says so, and Try again loads it', async () => {
    let fail = true;
    const { ui } = open({
      'GET /api/duplicates': () => (fail ? { status: 500, body: errorBody('Something went wrong on our side.') } : { body: { groups: [group], nextCursor: null } }),
    });
    expect(await screen.findByText("Couldn't load your duplicates.")).toBeTruthy();
    fail = false;
    await ui.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: '2 look-alike pins' })).toBeTruthy();
  });

  it('a refused merge is said on the group, which stays', async () => {
    const { ui } = open({
      'GET /api/duplicates': { body: { groups: [group], nextCursor: null } },
      'POST /api/duplicates/merge': { status: 404, body: errorBody('Pin not found.') },
    });
    const card = await screen.findByRole('region', { name: '2 look-alike pins' });
    await ui.click(within(card).getByRole('button', { name: 'Merge 2 pins' }));
    expect((await within(card).findByRole('alert')).textContent).toBe('Pin not found.');
  });
});
