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
});
