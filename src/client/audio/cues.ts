/**
 * The pure half of the audio layer: which cues exist, how loud each is, how often it may
 * fire, and the remembered mute switch. No audio library here, so it tests in Node.
 */
import type { Cue } from '../game/audioOut.ts';

export const SOUND_CUES = [
  'tick',
  'spin',
  'stop',
  'bell',
  'refund',
  'win-small',
  'win-big',
  'win-mega',
  'win-jackpot',
  'lose',
  'click',
] as const satisfies readonly Cue[];

/**
 * Cues fetched only when a round that needs them is bought (controller: `prepare`), seconds
 * before they play: the two longest, heard on 4 units in a million.
 */
export const ON_DEMAND_CUES: readonly Cue[] = ['win-mega', 'win-jackpot'];

/** The spin bed's length: scripts/make-sounds.ts renders it to loop over exactly this. */
export const SPIN_BED_S = 1.2;

/** The spin bed plays in a loop while wheels turn; it fades out over this much of its end. */
export const SPIN_BED_FADE_S = 0.6;

/**
 * Where an MP3 cue's sound starts in what the browser decodes: LAME's encoder delay (576
 * samples) and the decoder's (529) at 22 050 Hz. The cues play from there (a sprite), so
 * a bell lands with its thunk, not 50 ms after it (e2e/delivery.spec.ts measures it in Chromium).
 */
export const MP3_LEAD_S = (576 + 529) / 22_050;
/** The game's cues (game/audioOut.ts); CUE_SETTINGS and the files cover each one. */
export type SoundCue = Cue;

export interface CueSettings {
  /** 0..1, on top of the level the file was rendered at. */
  volume: number;
  /** A cue fired sooner than this after the last one that played is dropped. */
  minGapMs: number;
}

/**
 * Ticks can be asked for ~30 times a second per wheel, four wheels at once: keep them
 * quiet and at most ~22 a second, which still reads as a ratchet. Thunks and clicks get a
 * small gap so simultaneous requests don't stack into one loud hit.
 */
export const CUE_SETTINGS: Readonly<Record<SoundCue, CueSettings>> = {
  tick: { volume: 0.25, minGapMs: 45 },
  spin: { volume: 0.35, minGapMs: 60 },
  stop: { volume: 0.5, minGapMs: 40 },
  bell: { volume: 0.7, minGapMs: 0 },
  // Each result a step louder than the one below; a loss the quietest of all (audio/levels.test.ts).
  refund: { volume: 0.55, minGapMs: 0 },
  'win-small': { volume: 0.7, minGapMs: 0 },
  'win-big': { volume: 0.8, minGapMs: 0 },
  'win-mega': { volume: 0.9, minGapMs: 0 },
  'win-jackpot': { volume: 1, minGapMs: 0 },
  lose: { volume: 0.3, minGapMs: 0 },
  click: { volume: 0.5, minGapMs: 30 },
};

/** Decides, cue by cue, whether a request to play now should sound or be dropped. */
export class CueThrottle {
  private readonly lastPlayed = new Map<SoundCue, number>();

  constructor(private readonly settings: Readonly<Record<SoundCue, CueSettings>> = CUE_SETTINGS) {}

  /** True (and remembered as played) when `cue` may sound at `nowMs`. */
  allow(cue: SoundCue, nowMs: number): boolean {
    const last = this.lastPlayed.get(cue);
    if (last !== undefined && nowMs - last < this.settings[cue].minGapMs) return false;
    this.lastPlayed.set(cue, nowMs);
    return true;
  }
}

export const MUTED_STORAGE_KEY = 'spincake.muted';

/** The remembered mute switch; false when nothing is stored or storage is unavailable. */
export function readMuted(storage: Storage | undefined): boolean {
  try {
    return storage?.getItem(MUTED_STORAGE_KEY) === '1';
  } catch {
    return false; // Storage can throw (privacy modes, blocked cookies): sound stays on.
  }
}

/** Remembers the mute switch; a storage failure only means it is forgotten next visit. */
export function writeMuted(storage: Storage | undefined, muted: boolean): void {
  try {
    storage?.setItem(MUTED_STORAGE_KEY, muted ? '1' : '0');
  } catch {
    // Quota or privacy mode: the switch still works for this visit.
  }
}

/** `window.localStorage` when the browser lets us have it. */
export function defaultStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
