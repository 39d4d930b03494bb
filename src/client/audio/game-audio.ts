import { Howl, Howler } from 'howler';
import tickUrl from '../../../assets/sounds/tick.wav?url';
import spinUrl from '../../../assets/sounds/spin.wav?url';
import stopUrl from '../../../assets/sounds/stop.wav?url';
import bellUrl from '../../../assets/sounds/bell.wav?url';
import winSmallUrl from '../../../assets/sounds/win-small.wav?url';
import winBigUrl from '../../../assets/sounds/win-big.wav?url';
import loseUrl from '../../../assets/sounds/lose.wav?url';
import clickUrl from '../../../assets/sounds/click.wav?url';
import type { AudioOut } from '../game/audioOut.ts';
import { CUE_SETTINGS, CueThrottle, SOUND_CUES, defaultStorage, readMuted, writeMuted, type SoundCue } from './cues.ts';

export type { SoundCue } from './cues.ts';

/** The game's sound, behind one small interface (the library is an implementation detail). */
export interface GameAudio extends AudioOut {
  /** Plays a cue unless muted or throttled; never throws, even with no audio device. */
  play(cue: SoundCue): void;
  /** Mutes or unmutes, and remembers the choice for the next visit. */
  setMuted(muted: boolean): void;
  readonly muted: boolean;
  /** Call on the first pointerdown: mobile browsers only allow audio after a gesture. */
  unlock(): void;
}

const URLS: Record<SoundCue, string> = {
  tick: tickUrl,
  spin: spinUrl,
  stop: stopUrl,
  bell: bellUrl,
  'win-small': winSmallUrl,
  'win-big': winBigUrl,
  lose: loseUrl,
  click: clickUrl,
};

/**
 * Howler-backed audio. The sounds load on the first unlock() or play(), not at start-up,
 * so no AudioContext is created before the player has touched the page.
 */
export function createGameAudio(storage: Storage | undefined = defaultStorage()): GameAudio {
  let muted = readMuted(storage);
  let howls: Map<SoundCue, Howl> | undefined;
  let broken = false;
  const throttle = new CueThrottle();
  const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

  /** Loads every cue once; after a failure, audio stays off rather than throwing again. */
  function load(): Map<SoundCue, Howl> | undefined {
    if (howls || broken) return howls;
    try {
      Howler.mute(muted);
      howls = new Map(
        SOUND_CUES.map((cue) => [
          cue,
          new Howl({ src: [URLS[cue]], format: ['wav'], volume: CUE_SETTINGS[cue].volume, preload: true }),
        ]),
      );
    } catch (error) {
      broken = true;
      console.warn('audio unavailable:', error);
    }
    return howls;
  }

  return {
    get muted() {
      return muted;
    },
    setMuted(value: boolean) {
      muted = value;
      writeMuted(storage, value);
      try {
        if (howls) Howler.mute(value);
      } catch {
        // No audio device: nothing is playing anyway.
      }
    },
    unlock() {
      if (!load()) return;
      try {
        // Howler also unlocks on its own first touch; resuming here covers a context
        // suspended by the browser's autoplay policy before that listener ran.
        if (Howler.ctx && Howler.ctx.state === 'suspended') void Howler.ctx.resume().catch(() => undefined);
      } catch {
        // Nothing to unlock without Web Audio; Howler falls back to HTML5 Audio.
      }
    },
    play(cue: SoundCue) {
      if (muted || !throttle.allow(cue, now())) return;
      try {
        load()?.get(cue)?.play();
      } catch {
        // Audio is decoration: a failure here must never break a round.
      }
    },
  };
}
