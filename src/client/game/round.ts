import type { Launched, Play } from '../../contract/api.ts';
import { WHEELS_PER_UNIT } from '../../rules/unit.ts';

/**
 * One round of Article 4 as pure data: no Pixi, no GSAP, no network. The controller
 * feeds it events and asks it what the player may do next.
 *
 * idle → buying (« Jouer » in flight) → ready (unit shown) → spinning (at least one
 * wheel launched) → revealed (all four stopped, overlay shown) → idle.
 * idle → replay (a past play shown again from the history; nothing bought) → idle.
 */
export type Phase = 'loading' | 'idle' | 'buying' | 'ready' | 'spinning' | 'revealed' | 'replay';
export type WheelState = 'standing' | 'spinning' | 'stopped';

export interface RoundState {
  readonly phase: Phase;
  readonly play: Play | null;
  readonly wheels: readonly WheelState[];
}

const allStanding = (): WheelState[] => Array.from({ length: WHEELS_PER_UNIT }, () => 'standing');

export const initialRound: RoundState = { phase: 'loading', play: null, wheels: allStanding() };

/** Idle means no unit on the table: the previous play stays only in the history. */
export function toIdle(): RoundState {
  return { phase: 'idle', play: null, wheels: allStanding() };
}

export function canBuy(state: RoundState): boolean {
  return state.phase === 'idle';
}

export function startBuying(state: RoundState): RoundState {
  if (!canBuy(state)) throw new Error(`cannot buy in phase ${state.phase}`);
  return { ...state, phase: 'buying' };
}

/** « Jouer » failed: back to the table, nothing changed. */
export function buyFailed(state: RoundState): RoundState {
  if (state.phase !== 'buying') throw new Error(`no purchase in flight (phase ${state.phase})`);
  return { ...state, phase: 'idle' };
}

/**
 * A play from the server — just bought, or found unfinished at start-up. Wheels the
 * server says were launched are shown stopped on their result; the others stand.
 */
export function withPlay(play: Play): RoundState {
  const wheels: WheelState[] = play.launched.map((launched) => (launched ? 'stopped' : 'standing'));
  if (wheels.length !== WHEELS_PER_UNIT) throw new Error(`a play has ${WHEELS_PER_UNIT} wheels`);
  const anyLaunched = wheels.some((w) => w === 'stopped');
  const allStopped = wheels.every((w) => w === 'stopped');
  return { phase: allStopped ? 'revealed' : anyLaunched ? 'spinning' : 'ready', play, wheels };
}

export function canLaunch(state: RoundState, wheel: number): boolean {
  return (state.phase === 'ready' || state.phase === 'spinning') && state.wheels[wheel] === 'standing';
}

/** The wheels the common « GO » launches: every one still standing (4.4). */
export function standingWheels(state: RoundState): number[] {
  if (state.phase !== 'ready' && state.phase !== 'spinning') return [];
  return state.wheels.flatMap((w, i) => (w === 'standing' ? [i] : []));
}

export function launch(state: RoundState, wheels: readonly number[]): RoundState {
  const next = [...state.wheels];
  for (const i of wheels) {
    if (!canLaunch(state, i)) throw new Error(`wheel ${i + 1} cannot be launched (phase ${state.phase})`);
    next[i] = 'spinning';
  }
  return { ...state, phase: 'spinning', wheels: next };
}

export function wheelStopped(state: RoundState, wheel: number): RoundState {
  if (state.wheels[wheel] !== 'spinning') throw new Error(`wheel ${wheel + 1} is not spinning`);
  const next = [...state.wheels];
  next[wheel] = 'stopped';
  const over = next.every((w) => w === 'stopped') && state.phase !== 'replay';
  return { ...state, wheels: next, phase: over ? 'revealed' : state.phase };
}

/** Only from an idle table: never over a live round. */
export function canReplay(state: RoundState): boolean {
  return state.phase === 'idle';
}

/**
 * A past play shown again: all four wheels spin to its stops. It carries no `play`,
 * so nothing treats it as a round (no launch, no progress, no portal events).
 */
export function startReplay(state: RoundState): RoundState {
  if (!canReplay(state)) throw new Error(`cannot replay in phase ${state.phase}`);
  return { phase: 'replay', play: null, wheels: allStanding().map(() => 'spinning') };
}

/** The replay's four wheels have stopped: the card can show its figures. */
export function isReplayOver(state: RoundState): boolean {
  return state.phase === 'replay' && state.wheels.every((w) => w === 'stopped');
}

/** What to report to the server: a wheel counts as launched from the moment its « GO » is pressed. */
export function launchedFlags(state: RoundState): Launched {
  const flags = state.wheels.map((w) => w !== 'standing');
  return [flags[0]!, flags[1]!, flags[2]!, flags[3]!];
}
