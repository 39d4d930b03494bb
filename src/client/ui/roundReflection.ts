import type { RoundState } from '../game/round.ts';

/** Mirrors the round onto <body> so tests (and CSS) can wait on it without polling the page's JS. */
export function reflectRound(state: RoundState): void {
  document.body.dataset.phase = state.phase;
  document.body.dataset.wheels = state.wheels.join(',');
}
