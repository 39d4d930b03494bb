import type { Play } from '../../contract/api.ts';
import type { GameEventPayloads, GameEventType } from './protocol.ts';

/**
 * Turns what the game already does (round states, the balance it shows, API failures)
 * into the bridge's events. Pure: the emitter and the scheduler are injected.
 */

export type Emit = <T extends GameEventType>(type: T, payload: GameEventPayloads[T]) => void;

/** The part of the controller's round state that matters here. */
export interface RoundLike {
  readonly phase: string;
  readonly play: Pick<Play, 'playId' | 'stakeCents' | 'winCents' | 'balanceAfterCents'> | null;
}

/** roundStarted once per play on the table, roundEnded once per play revealed. */
export class RoundEvents {
  private previousPhase = 'loading';
  private started: string | null = null;
  private ended: string | null = null;

  constructor(private readonly emit: Emit) {}

  changed(state: RoundLike): void {
    const play = state.play;
    if (play && play.playId !== this.started) {
      this.started = play.playId;
      // Bought now when the round was in its « Jouer » request; otherwise found unfinished at start-up.
      this.emit('roundStarted', {
        playId: play.playId,
        stakeCents: play.stakeCents,
        resumed: this.previousPhase !== 'buying',
      });
    }
    if (play && state.phase === 'revealed' && play.playId !== this.ended) {
      this.ended = play.playId;
      this.emit('roundEnded', { playId: play.playId, winCents: play.winCents, balanceCents: play.balanceAfterCents });
    }
    this.previousPhase = state.phase;
  }
}

/**
 * balanceChanged when the shown balance settles on a new value. Changes made within one
 * task are coalesced (the controller may redraw twice while revealing a round), so the
 * portal sees only the value the player actually sees.
 */
export class BalanceEvents {
  private sent: number | null = null;
  private latest: number | null = null;
  private scheduled = false;

  constructor(
    private readonly emit: Emit,
    // Wrapped: browsers refuse queueMicrotask called as a method of another object.
    private readonly schedule: (flush: () => void) => void = (flush) => queueMicrotask(flush),
  ) {}

  shown(balanceCents: number | null): void {
    if (balanceCents === null) return;
    this.latest = balanceCents;
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      if (this.latest === null || this.latest === this.sent) return;
      this.sent = this.latest;
      this.emit('balanceChanged', { balanceCents: this.latest });
    });
  }
}

/** What an API call ends in, as far as errors go (see net/http.ts's ApiResult). */
export type CallOutcome =
  | { ok: true }
  | { ok: false; kind: 'server'; code: string; message: string }
  | { ok: false; kind: 'network'; message: string };

/** Code sent when no answer came from the server at all. */
export const NETWORK_ERROR = 'NETWORK';

/**
 * error for a failed purchase or session. The controller retries its start-up every
 * few seconds: the same failure again is not repeated until something succeeded.
 */
export class ErrorEvents {
  private last: string | null = null;

  constructor(private readonly emit: Emit) {}

  outcome(result: CallOutcome): void {
    if (result.ok) {
      this.last = null;
      return;
    }
    const code = result.kind === 'server' ? result.code : NETWORK_ERROR;
    const key = `${code}\n${result.message}`;
    if (key === this.last) return;
    this.last = key;
    this.emit('error', { code, message: result.message });
  }
}
