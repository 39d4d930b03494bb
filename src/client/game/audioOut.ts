/** The sounds the game asks for, by what happened (audio/ renders them). */
export type Cue = 'tick' | 'spin' | 'stop' | 'bell' | 'win-small' | 'win-big' | 'lose' | 'click';

/** What the game needs from the sound layer (audio/game-audio.ts implements it). */
export interface AudioOut {
  play(cue: Cue): void;
  setMuted(muted: boolean): void;
  readonly muted: boolean;
  unlock(): void;
}
