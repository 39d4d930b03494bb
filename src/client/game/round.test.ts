import { describe, expect, it } from 'vitest';
import type { Launched, Play } from '../../contract/api.ts';
import {
  buyFailed,
  canBuy,
  canReplay,
  isReplayOver,
  startReplay,
  canLaunch,
  initialRound,
  launch,
  launchedFlags,
  standingWheels,
  startBuying,
  toIdle,
  wheelStopped,
  withPlay,
} from './round.ts';

function play(launched: Launched = [false, false, false, false]): Play {
  const wheel = {
    segments: Array.from({ length: 6 }, () => ({ symbol: 'cupcake' as const, points: 50 })),
    stop: 0,
  };
  return {
    playId: 'p',
    stakeCents: 100,
    createdAt: '2026-01-01T00:00:00Z',
    wheels: [wheel, wheel, wheel, wheel],
    jeu1: { bells: 0, winCents: 0 },
    jeu2: { points: 200, winCents: 0 },
    winCents: 0,
    balanceBeforeCents: 1000,
    balanceAfterCents: 900,
    launched,
    finished: false,
  };
}

describe('a round', () => {
  it('launches nothing outside a round', () => {
    expect(canLaunch(initialRound, 0)).toBe(false);
    expect(canLaunch(toIdle(), 0)).toBe(false);
    expect(standingWheels(toIdle())).toEqual([]);
    expect(canLaunch(startBuying(toIdle()), 0)).toBe(false);
    expect(() => launch(toIdle(), [0])).toThrow();
  });

  it('buys only from idle, and a failed purchase returns to idle', () => {
    expect(canBuy(initialRound)).toBe(false);
    const buying = startBuying(toIdle());
    expect(canBuy(buying)).toBe(false);
    expect(() => startBuying(buying)).toThrow();
    expect(buyFailed(buying).phase).toBe('idle');
  });

  it('every wheel by its own GO, in any order, each once', () => {
    let s = withPlay(play());
    expect(s.phase).toBe('ready');
    s = launch(s, [2]);
    expect(s.phase).toBe('spinning');
    expect(canLaunch(s, 2)).toBe(false);
    expect(() => launch(s, [2])).toThrow();
    s = wheelStopped(s, 2);
    expect(launchedFlags(s)).toEqual([false, false, true, false]);
    for (const i of [0, 3, 1]) s = wheelStopped(launch(s, [i]), i);
    expect(s.phase).toBe('revealed');
  });

  it('the common GO launches exactly the wheels still standing', () => {
    let s = launch(withPlay(play()), [1]);
    expect(standingWheels(s)).toEqual([0, 2, 3]);
    s = launch(s, standingWheels(s));
    expect(standingWheels(s)).toEqual([]);
    expect(launchedFlags(s)).toEqual([true, true, true, true]);
    for (const i of [3, 0, 2]) s = wheelStopped(s, i);
    expect(s.phase).toBe('spinning');
    s = wheelStopped(s, 1);
    expect(s.phase).toBe('revealed');
  });

  it('resumes a play: launched wheels stopped on their result, the rest launchable', () => {
    const s = withPlay(play([true, false, true, false]));
    expect(s.wheels).toEqual(['stopped', 'standing', 'stopped', 'standing']);
    expect(s.phase).toBe('spinning');
    expect(standingWheels(s)).toEqual([1, 3]);
    expect(withPlay(play([true, true, true, true])).phase).toBe('revealed');
  });

  it('refuses to stop a wheel that is not spinning', () => {
    expect(() => wheelStopped(withPlay(play()), 0)).toThrow();
  });
});

describe('a replay from the history', () => {
  it('starts only from an idle table, spins all four, and never becomes a revealed round', () => {
    expect(canReplay(toIdle())).toBe(true);
    expect(canReplay(withPlay(play()))).toBe(false);
    expect(() => startReplay(withPlay(play()))).toThrow();
    let s = startReplay(toIdle());
    expect(s.play).toBeNull();
    expect(s.wheels).toEqual(['spinning', 'spinning', 'spinning', 'spinning']);
    expect(canLaunch(s, 0)).toBe(false);
    expect(canBuy(s)).toBe(false);
    for (const w of [2, 0, 3]) s = wheelStopped(s, w);
    expect(isReplayOver(s)).toBe(false);
    s = wheelStopped(s, 1);
    expect(s.phase).toBe('replay');
    expect(isReplayOver(s)).toBe(true);
    expect(isReplayOver(withPlay(play([true, true, true, true])))).toBe(false);
  });
});
