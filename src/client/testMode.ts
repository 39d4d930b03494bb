import gsap from 'gsap';
import type { RoundState } from './game/round.ts';
import { SAFE_FRACTION, SEGMENT_DEG, segmentUnderCursor } from './game/spin.ts';

/**
 * `?test=1`: the only global, `window.spincake`, with a clock that tests drive. All
 * motion runs on GSAP's global timeline, so freezing it stops every spin, glow, card
 * and sprinkle at an exact moment, and `advance` moves them by exact milliseconds.
 */
export interface SpincakeTestApi {
  /** Phase, wheel states and overlay state, as the data attributes on <body> also say. */
  state(): { phase: string; wheels: string[]; overlay: string; renderer: string };
  freeze(): void;
  advance(ms: number): void;
  /** Every spinning wheel jumps to its rest on the server's segment. */
  finishSpins(): void;
  /** The segment under each wheel's cursor now, as the scene is turned. */
  cursors(): number[];
  /** The bearer token of this page's player (for the server's test fixtures). */
  token(): string | null;
  /**
   * Visual suite only: turns a resting wheel by `deg` (a few degrees, staying inside
   * the segment's safe part) with no animation, to prove a moved segment is caught.
   */
  turnWheel(wheel: number, deg: number): void;
}

/** The part of the scene that `turnWheel` needs. */
export interface TurnableTable {
  rotationDeg(wheel: number): number;
  showStopped(wheel: number, stop: number, offset: number): void;
}

declare global {
  interface Window {
    spincake?: SpincakeTestApi;
  }
}

export function isTestMode(search: string): boolean {
  return new URLSearchParams(search).get('test') === '1';
}

/** A small seeded PRNG (mulberry32) so spins land the same way in every test run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAME_S = 1 / 60;

export function installTestApi(hooks: {
  round(): RoundState;
  finishSpins(): void;
  token(): string | null;
  renderer: string;
  table: TurnableTable;
}): void {
  gsap.ticker.lagSmoothing(0);
  const timeline = gsap.globalTimeline;
  window.spincake = {
    state: () => ({
      phase: hooks.round().phase,
      wheels: [...hooks.round().wheels],
      overlay: document.body.dataset.overlay ?? 'hidden',
      renderer: hooks.renderer,
    }),
    freeze: () => void timeline.pause(),
    // Frame by frame, so tweens that start along the way (the card after the last stop)
    // get their share of the time too.
    advance: (ms) => {
      let left = ms / 1000;
      while (left > 1e-9) {
        const step = Math.min(FRAME_S, left);
        timeline.totalTime(timeline.totalTime() + step);
        left -= step;
      }
    },
    finishSpins: () => hooks.finishSpins(),
    cursors: () => [0, 1, 2, 3].map((i) => segmentUnderCursor(hooks.table.rotationDeg(i))),
    token: () => hooks.token(),
    turnWheel: (wheel, deg) => {
      const target = hooks.table.rotationDeg(wheel) + deg;
      const stop = segmentUnderCursor(target);
      // Degrees from the centre of that segment, as showStopped's offset (−1…1 of the safe part).
      const fromCentre = ((((target + stop * SEGMENT_DEG) % 360) + 540) % 360) - 180;
      hooks.table.showStopped(wheel, stop, fromCentre / ((SAFE_FRACTION / 2) * SEGMENT_DEG));
    },
  };
}

/** Mirrors the round onto <body> so tests (and CSS) can wait on it without polling the page's JS. */
export function reflectRound(state: RoundState): void {
  document.body.dataset.phase = state.phase;
  document.body.dataset.wheels = state.wheels.join(',');
}
