import { describe, expect, it } from 'vitest';
import { makePlay, memoryStorage } from './fakes.ts';
import { SessionTally } from './sessionTally.ts';

describe('SessionTally', () => {
  it('adds up stakes paid and wins revealed, once each, across a reload', () => {
    let now = Date.parse('2026-06-21T16:00:00Z');
    const storage = memoryStorage({});
    const tally = new SessionTally(storage, () => now);
    tally.begin('t1');
    const win = makePlay({ playId: 'a', stakeCents: 200, bells: 2, points: 200 });
    const lose = makePlay({ playId: 'b', stakeCents: 100, points: 0 });
    tally.bought(win);
    tally.bought(win);
    expect(tally.summary()).toEqual({ minutes: 0, stakedCents: 200, wonCents: 0, netCents: -200 });
    tally.revealed(win);
    tally.revealed(lose);
    now += 12.5 * 60_000;
    const again = new SessionTally(storage, () => now);
    again.begin('t1');
    again.revealed(win);
    expect(win.winCents).toBe(2_000);
    expect(again.summary()).toEqual({ minutes: 12, stakedCents: 300, wonCents: 2_000, netCents: 1_700 });
  });

  it('starts afresh for a new session, or from a damaged record', () => {
    const storage = memoryStorage({});
    const tally = new SessionTally(storage, () => 0);
    tally.begin('t1');
    tally.bought(makePlay({ stakeCents: 500 }));
    tally.begin('t2');
    expect(tally.summary()?.stakedCents).toBe(0);
    storage.setItem('spincake.sessionTally', '{not json');
    tally.begin('t2');
    expect(tally.summary()).toEqual({ minutes: 0, stakedCents: 0, wonCents: 0, netCents: 0 });
  });

  it('keeps every amount across a reload at any moment: after a purchase, after a reveal', () => {
    const storage = memoryStorage({});
    const reloaded = () => {
      const t = new SessionTally(storage, () => 0);
      t.begin('t1');
      return t.summary();
    };
    const tally = new SessionTally(storage, () => 0);
    tally.begin('t1');
    const win = makePlay({ playId: 'a', stakeCents: 100, bells: 2, points: 200 });
    tally.bought(win);
    expect(reloaded()).toMatchObject({ stakedCents: 100, wonCents: 0, netCents: -100 });
    tally.revealed(win);
    expect(reloaded()).toMatchObject({ stakedCents: 100, wonCents: win.winCents, netCents: win.winCents - 100 });
  });
});
