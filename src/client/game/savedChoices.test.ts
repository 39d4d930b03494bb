import { describe, expect, it } from 'vitest';
import { memoryStorage } from './fakes.ts';
import { SavedChoices } from './savedChoices.ts';

describe('SavedChoices', () => {
  it('keeps the stake picked, and only a stake of the game', () => {
    const storage = memoryStorage({});
    const saved = new SavedChoices(storage);
    expect(saved.stake()).toBeNull();
    saved.keepStake(300);
    expect(new SavedChoices(storage).stake()).toBe(300);
    for (const junk of ['400', '3', 'abc', '', '1e2x']) {
      storage.setItem('spincake.stake', junk);
      expect(saved.stake()).toBeNull();
    }
  });

  it('keeps the quick-spin setting, off until the player turns it on', () => {
    const storage = memoryStorage({});
    const saved = new SavedChoices(storage);
    expect(saved.quickSpin()).toBe(false);
    saved.keepQuickSpin(true);
    expect(storage.getItem('spincake.quickSpin')).toBe('on');
    expect(new SavedChoices(storage).quickSpin()).toBe(true);
    saved.keepQuickSpin(false);
    expect(new SavedChoices(storage).quickSpin()).toBe(false);
    storage.setItem('spincake.quickSpin', 'yes please');
    expect(saved.quickSpin()).toBe(false);
  });

  it('keeps which play’s result was shown, until it is closed', () => {
    const storage = memoryStorage({});
    const saved = new SavedChoices(storage);
    expect(saved.resultShown()).toBeNull();
    saved.keepResultShown('play-9');
    expect(new SavedChoices(storage).resultShown()).toBe('play-9');
    saved.keepResultShown(null);
    expect(saved.resultShown()).toBeNull();
  });
});
