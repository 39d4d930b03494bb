import { describe, expect, it } from 'vitest';
import { CUE_SETTINGS, CueThrottle, MUTED_STORAGE_KEY, SOUND_CUES, readMuted, writeMuted } from './cues.ts';

/** A Storage kept in memory: Node 24 has localStorage only behind `--localstorage-file`. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

/** A Storage that refuses everything, like Safari's private mode or blocked cookies. */
class RefusingStorage extends MemoryStorage {
  override getItem(): string | null {
    throw new DOMException('denied', 'SecurityError');
  }
  override setItem(): void {
    throw new DOMException('full', 'QuotaExceededError');
  }
}

describe('mute persistence', () => {
  it('is off on a first visit', () => {
    expect(readMuted(new MemoryStorage())).toBe(false);
    expect(readMuted(undefined)).toBe(false);
  });

  it('remembers muting and unmuting under spincake.muted', () => {
    const storage = new MemoryStorage();
    writeMuted(storage, true);
    expect(storage.getItem(MUTED_STORAGE_KEY)).toBe('1');
    expect(readMuted(storage)).toBe(true);
    writeMuted(storage, false);
    expect(readMuted(storage)).toBe(false);
  });

  it('treats anything other than the stored "1" as sound on', () => {
    const storage = new MemoryStorage();
    storage.setItem(MUTED_STORAGE_KEY, 'yes');
    expect(readMuted(storage)).toBe(false);
  });

  it('never throws when storage refuses', () => {
    const storage = new RefusingStorage();
    expect(() => writeMuted(storage, true)).not.toThrow();
    expect(readMuted(storage)).toBe(false);
  });
});

describe('CueThrottle', () => {
  it('lets at most one tick through per minimum gap, however fast they are asked for', () => {
    const throttle = new CueThrottle();
    const gap = CUE_SETTINGS.tick.minGapMs;
    // 4 wheels × 30 ticks a second for one second: a request every 1000/120 ms.
    const step = 1000 / 120;
    const played: number[] = [];
    for (let i = 0; i < 120; i++) if (throttle.allow('tick', i * step)) played.push(i * step);
    expect(played.length).toBeGreaterThan(10);
    expect(played.length).toBeLessThanOrEqual(Math.ceil(1000 / gap));
    // Ticks that play are at least the gap apart, and never held back longer than needed.
    played.slice(1).forEach((time, i) => {
      expect(time - (played[i] ?? 0)).toBeGreaterThanOrEqual(gap);
      expect(time - (played[i] ?? 0)).toBeLessThan(gap + step);
    });
  });

  it('measures the gap from the last tick that played, not the last one asked for', () => {
    const throttle = new CueThrottle({ ...CUE_SETTINGS, tick: { volume: 1, minGapMs: 50 } });
    expect(throttle.allow('tick', 0)).toBe(true);
    expect(throttle.allow('tick', 30)).toBe(false);
    expect(throttle.allow('tick', 49)).toBe(false);
    expect(throttle.allow('tick', 50)).toBe(true);
    expect(throttle.allow('tick', 99)).toBe(false);
    expect(throttle.allow('tick', 100)).toBe(true);
  });

  it('throttles each cue on its own', () => {
    const throttle = new CueThrottle();
    expect(throttle.allow('tick', 0)).toBe(true);
    expect(throttle.allow('stop', 1)).toBe(true);
    expect(throttle.allow('tick', 2)).toBe(false);
  });

  it('never drops a bell or a win chime asked for in the same instant', () => {
    const throttle = new CueThrottle();
    for (const cue of ['bell', 'bell', 'win-small', 'win-big', 'lose'] as const) {
      expect(throttle.allow(cue, 1000)).toBe(true);
    }
  });

  it('has settings for every cue, with soft ticks', () => {
    for (const cue of SOUND_CUES) {
      expect(CUE_SETTINGS[cue].volume).toBeGreaterThan(0);
      expect(CUE_SETTINGS[cue].volume).toBeLessThanOrEqual(1);
    }
    expect(CUE_SETTINGS.tick.volume).toBeLessThan(
      Math.min(...SOUND_CUES.filter((c) => c !== 'tick').map((c) => CUE_SETTINGS[c].volume)),
    );
  });
});
