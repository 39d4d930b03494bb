import { describe, expect, it } from 'vitest';
import { memoryStorage } from './fakes.ts';
import { Memory } from './memory.ts';

describe('Memory', () => {
  it('keeps the stake picked, and only a stake of the game', () => {
    const storage = memoryStorage({});
    const memory = new Memory(storage);
    expect(memory.stake()).toBeNull();
    memory.keepStake(300);
    expect(new Memory(storage).stake()).toBe(300);
    for (const junk of ['400', '3', 'abc', '', '1e2x']) {
      storage.setItem('spincake.stake', junk);
      expect(memory.stake()).toBeNull();
    }
  });

  it('keeps the quick-spin setting, off until the player turns it on', () => {
    const storage = memoryStorage({});
    const memory = new Memory(storage);
    expect(memory.quickSpin()).toBe(false);
    memory.keepQuickSpin(true);
    expect(storage.getItem('spincake.quickSpin')).toBe('on');
    expect(new Memory(storage).quickSpin()).toBe(true);
    memory.keepQuickSpin(false);
    expect(new Memory(storage).quickSpin()).toBe(false);
    storage.setItem('spincake.quickSpin', 'yes please');
    expect(memory.quickSpin()).toBe(false);
  });

  it('keeps which play’s result was shown, until it is closed', () => {
    const storage = memoryStorage({});
    const memory = new Memory(storage);
    expect(memory.resultShown()).toBeNull();
    memory.keepResultShown('play-9');
    expect(new Memory(storage).resultShown()).toBe('play-9');
    memory.keepResultShown(null);
    expect(memory.resultShown()).toBeNull();
  });
});
