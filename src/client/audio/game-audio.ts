import type { Howl } from 'howler';
import tickUrl from '../../../assets/sounds/tick.wav?url';
import spinUrl from '../../../assets/sounds/spin.wav?url';
import stopUrl from '../../../assets/sounds/stop.wav?url';
import bellUrl from '../../../assets/sounds/bell.wav?url';
import winSmallUrl from '../../../assets/sounds/win-small.wav?url';
import winBigUrl from '../../../assets/sounds/win-big.wav?url';
import loseUrl from '../../../assets/sounds/lose.wav?url';
import clickUrl from '../../../assets/sounds/click.wav?url';
import spinMp3Url from '../../../assets/sounds/spin.mp3?url';
import bellMp3Url from '../../../assets/sounds/bell.mp3?url';
import winSmallMp3Url from '../../../assets/sounds/win-small.mp3?url';
import winBigMp3Url from '../../../assets/sounds/win-big.mp3?url';
import loseMp3Url from '../../../assets/sounds/lose.mp3?url';
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

interface SoundFile {
  url: string;
  format: 'mp3' | 'wav';
}
const mp3 = (url: string): SoundFile => ({ url, format: 'mp3' });
const wav = (url: string): SoundFile => ({ url, format: 'wav' });

/**
 * Each cue's files, best first: howler.js loads only the first the browser can play — the MP3
 * (a seventh of the bytes) where scripts/make-sounds.ts makes one, else the WAV.
 */
const SOURCES: Record<SoundCue, readonly SoundFile[]> = {
  tick: [wav(tickUrl)],
  spin: [mp3(spinMp3Url), wav(spinUrl)],
  stop: [wav(stopUrl)],
  bell: [mp3(bellMp3Url), wav(bellUrl)],
  'win-small': [mp3(winSmallMp3Url), wav(winSmallUrl)],
  'win-big': [mp3(winBigMp3Url), wav(winBigUrl)],
  lose: [mp3(loseMp3Url), wav(loseUrl)],
  click: [wav(clickUrl)],
};

/** A cue asked for while howler.js was still on its way plays once it is there, if still this fresh. */
const LATE_PLAY_MS = 400;

/**
 * Howler-backed audio. howler.js itself is a chunk of its own, fetched on the first unlock()
 * or play(), and the sounds load then, not at start-up: nothing of audio is on the page's
 * first load, and no AudioContext is created before the player has touched the page.
 */
export function createGameAudio(storage: Storage | undefined = defaultStorage()): GameAudio {
  let muted = readMuted(storage);
  let howler: typeof import('howler') | undefined;
  let howls: Map<SoundCue, Howl> | undefined;
  let loading: Promise<void> | undefined;
  let broken = false;
  let waiting: { cue: SoundCue; at: number } | undefined;
  const throttle = new CueThrottle();
  const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

  /** Loads howler.js and every cue once; after a failure, audio stays off rather than throwing again. */
  function load(): Promise<void> {
    loading ??= import('howler')
      .then((module) => {
        howler = module;
        module.Howler.mute(muted);
        howls = new Map(
          SOUND_CUES.map((cue) => [
            cue,
            new module.Howl({
              src: SOURCES[cue].map((file) => file.url),
              format: SOURCES[cue].map((file) => file.format),
              volume: CUE_SETTINGS[cue].volume,
              preload: true,
            }),
          ]),
        );
        if (waiting && !muted && now() - waiting.at <= LATE_PLAY_MS) howls.get(waiting.cue)?.play();
        waiting = undefined;
      })
      .catch((error: unknown) => {
        broken = true;
        console.warn('audio unavailable:', error);
      });
    return loading;
  }

  return {
    get muted() {
      return muted;
    },
    setMuted(value: boolean) {
      muted = value;
      writeMuted(storage, value);
      try {
        howler?.Howler.mute(value);
      } catch {
        // No audio device: nothing is playing anyway.
      }
    },
    unlock() {
      if (broken) return;
      void load().then(() => {
        try {
          // Howler also unlocks on its own first touch; resuming here covers a context
          // suspended by the browser's autoplay policy before that listener ran.
          const ctx = howler?.Howler.ctx;
          if (ctx && ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
        } catch {
          // Nothing to unlock without Web Audio; Howler falls back to HTML5 Audio.
        }
      });
    },
    play(cue: SoundCue) {
      if (muted || broken || !throttle.allow(cue, now())) return;
      try {
        if (howls) howls.get(cue)?.play();
        else {
          waiting = { cue, at: now() };
          void load();
        }
      } catch {
        // Audio is decoration: a failure here must never break a round.
      }
    },
  };
}
