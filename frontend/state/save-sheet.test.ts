import { afterEach, describe, expect, it } from 'vitest';
import { matchBoards, recentBoardIds, recentFirst, rememberBoard } from './save-sheet.ts';

const boards = [
  { id: 1, name: 'Kitchen' },
  { id: 2, name: 'Garden ideas' },
  { id: 3, name: 'Café corners' },
  { id: 4, name: 'Garden tools' },
];

afterEach(() => localStorage.clear());

describe('the board pickers: recently used first, filtered by typing', () => {
  it('remembers the boards saved to, per user, most recent first, without repeats', () => {
    rememberBoard(7, 2);
    rememberBoard(7, 4);
    rememberBoard(7, 2);
    rememberBoard(8, 1);
    expect(recentBoardIds(7)).toEqual([2, 4]);
    expect(recentBoardIds(8)).toEqual([1]);
    expect(recentBoardIds(9)).toEqual([]);
  });

  it('keeps eight at most and survives storage that holds something else', () => {
    for (let id = 1; id <= 12; id += 1) rememberBoard(7, id);
    expect(recentBoardIds(7)).toEqual([12, 11, 10, 9, 8, 7, 6, 5]);
    localStorage.setItem('pinboard:recent-boards:7', 'not json');
    expect(recentBoardIds(7)).toEqual([]);
  });

  it('lists the recently used first, in the order used, then the others in their order', () => {
    expect(recentFirst(boards, [4, 99, 2]).map((b) => b.id)).toEqual([4, 2, 1, 3]);
    expect(recentFirst(boards, []).map((b) => b.id)).toEqual([1, 2, 3, 4]);
  });

  it('matches every word typed, in any case and accent', () => {
    expect(matchBoards(boards, 'garden').map((b) => b.id)).toEqual([2, 4]);
    expect(matchBoards(boards, 'GARD too').map((b) => b.id)).toEqual([4]);
    expect(matchBoards(boards, 'cafe').map((b) => b.id)).toEqual([3]);
    expect(matchBoards(boards, '  ').map((b) => b.id)).toEqual([1, 2, 3, 4]);
    expect(matchBoards(boards, 'attic')).toEqual([]);
  });
});
