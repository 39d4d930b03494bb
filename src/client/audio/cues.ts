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
  'win-small',
  'win-big',
  'lose',
  'click',
] as const satisfies readonly Cue[];
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
  spin: { volume: 0.5, minGapMs: 60 },
  stop: { volume: 0.5, minGapMs: 40 },
  bell: { volume: 0.7, minGapMs: 0 },
  'win-small': { volume: 0.7, minGapMs: 0 },
  'win-big': { volume: 0.8, minGapMs: 0 },
  lose: { volume: 0.6, minGapMs: 0 },
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
