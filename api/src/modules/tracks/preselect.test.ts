import { describe, expect, it } from 'vitest';
import { preferRecognised } from './preselect.js';

const options = (...ids: string[]) => ids.map((id) => ({ id }));
const ids = (rows: { id: string }[][]) => rows.map((row) => row.map((track) => track.id));

describe('recognised tracks as preselected options', () => {
  it('moves the recognised candidate of each row first', () => {
    expect(ids(preferRecognised([options('a', 'b', 'c'), options('d', 'e')], ['c', 'e']))).toEqual([
      ['c', 'a', 'b'],
      ['e', 'd'],
    ]);
  });

  it('aligns rows and recognised tracks in play order when a row could be several of them', () => {
    const vague = options('x', 'y', 'z');
    expect(ids(preferRecognised([vague, vague, vague], ['z', 'x', 'y']))).toEqual([
      ['z', 'x', 'y'],
      ['x', 'y', 'z'],
      ['y', 'x', 'z'],
    ]);
  });

  it('leaves rows alone that match nothing recognised, and everything without recognition', () => {
    expect(ids(preferRecognised([options('a', 'b'), options(), options('c', 'd')], ['d']))).toEqual([['a', 'b'], [], ['d', 'c']]);
    expect(ids(preferRecognised([options('a', 'b')], []))).toEqual([['a', 'b']]);
  });
});
