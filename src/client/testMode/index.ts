import gsap from 'gsap';
import type { RoundState } from '../game/round.ts';
import { restingPlace, segmentUnderCursor } from '../game/spin.ts';

/**
 * `?test=1`: the only global, `window.spincake`, with a clock that tests drive. All
 * motion runs on GSAP's global timeline, so freezing it stops every spin, glow, card
 * and sprinkle at an exact moment, and `advance` moves them by exact milliseconds.
 * main.ts imports this module only in test mode: the normal page never loads it.
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

const FRAME_S = 1 / 60;

export function installTestApi(hooks: {
  round(): RoundState;
  finishSpins(): void;
  /** Puts the scene back on GSAP's ticker (it leaves it while the table is still). */
  wake(): void;
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
      hooks.wake();
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
      hooks.wake();
      const { stop, offset } = restingPlace(hooks.table.rotationDeg(wheel) + deg);
      hooks.table.showStopped(wheel, stop, offset);
    },
  };
}
