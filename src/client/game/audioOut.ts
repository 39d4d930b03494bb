/** The sounds the game asks for, by what happened (audio/ renders them). */
export type Cue =
  | 'tick'
  | 'spin'
  | 'stop'
  | 'bell'
  | 'refund'
  | 'win-small'
  | 'win-big'
  | 'win-mega'
  | 'win-jackpot'
  | 'lose'
  | 'click';

/** What the game needs from the sound layer (audio/game-audio.ts implements it). */
export interface AudioOut {
  /** `spin` starts the spin bed (a loop), or keeps the one playing. */
  play(cue: Cue): void;
  /** The spin bed fades out to end `seconds` from now (0: now), replacing any earlier end. */
  endSpinBed(seconds: number): void;
  /** Fetches a cue that is not loaded up front (the big tiers'), ahead of its round's end. */
  prepare(cue: Cue): void;
  setMuted(muted: boolean): void;
  readonly muted: boolean;
  unlock(): void;
}
