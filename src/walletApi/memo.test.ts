import { describe, expect, it } from 'vitest';
import { memoByKey } from './memo.ts';

describe('memoByKey', () => {
  it('makes a key’s value once, keeps at most max keys, and makes a dropped one again', () => {
    const made: string[] = [];
    const upper = memoByKey((key) => {
      made.push(key);
      return { key: key.toUpperCase() };
    }, 2);
    const a = upper('a');
    expect(upper('a')).toBe(a);
    upper('b');
    expect(made).toEqual(['a', 'b']);
    upper('c'); // past 2 keys: everything kept is dropped
    expect(upper('a')).not.toBe(a);
    expect(upper('a')).toEqual({ key: 'A' });
    expect(made).toEqual(['a', 'b', 'c', 'a']);
  });
});
