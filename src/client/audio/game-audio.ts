import type { Howl } from 'howler';
import tickUrl from '../../../assets/sounds/tick.wav?url';
import spinUrl from '../../../assets/sounds/spin.wav?url';
import stopUrl from '../../../assets/sounds/stop.wav?url';
import bellUrl from '../../../assets/sounds/bell.wav?url';
import refundUrl from '../../../assets/sounds/refund.wav?url';
import winSmallUrl from '../../../assets/sounds/win-small.wav?url';
import winBigUrl from '../../../assets/sounds/win-big.wav?url';
import winMegaUrl from '../../../assets/sounds/win-mega.wav?url';
import winJackpotUrl from '../../../assets/sounds/win-jackpot.wav?url';
import loseUrl from '../../../assets/sounds/lose.wav?url';
import clickUrl from '../../../assets/sounds/click.wav?url';
import spinMp3Url from '../../../assets/sounds/spin.mp3?url';
import bellMp3Url from '../../../assets/sounds/bell.mp3?url';
import refundMp3Url from '../../../assets/sounds/refund.mp3?url';
import winSmallMp3Url from '../../../assets/sounds/win-small.mp3?url';
import winBigMp3Url from '../../../assets/sounds/win-big.mp3?url';
import winMegaMp3Url from '../../../assets/sounds/win-mega.mp3?url';
import winJackpotMp3Url from '../../../assets/sounds/win-jackpot.mp3?url';
import loseMp3Url from '../../../assets/sounds/lose.mp3?url';
import type { AudioOut } from '../game/audioOut.ts';
import {
  CUE_SETTINGS,
  CueThrottle,
  MP3_LEAD_S,
  ON_DEMAND_CUES,
  SOUND_CUES,
  SPIN_BED_FADE_S,
  SPIN_BED_S,
  defaultStorage,
  readMuted,
  writeMuted,
  type SoundCue,
} from './cues.ts';

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

/** Each cue's WAV, and its MP3 (a seventh of the bytes) where scripts/make-sounds.ts makes one. */
const SOURCES: Record<SoundCue, { wav: string; mp3?: string }> = {
  tick: { wav: tickUrl },
  spin: { wav: spinUrl, mp3: spinMp3Url },
  stop: { wav: stopUrl },
  bell: { wav: bellUrl, mp3: bellMp3Url },
  refund: { wav: refundUrl, mp3: refundMp3Url },
  'win-small': { wav: winSmallUrl, mp3: winSmallMp3Url },
  'win-big': { wav: winBigUrl, mp3: winBigMp3Url },
  'win-mega': { wav: winMegaUrl, mp3: winMegaMp3Url },
  'win-jackpot': { wav: winJackpotUrl, mp3: winJackpotMp3Url },
  lose: { wav: loseUrl, mp3: loseMp3Url },
  click: { wav: clickUrl },
};

/** Long enough for any cue: a one-shot sprite plays to its file's end. */
const ONE_SHOT_MS = 10_000;
/** The spin bed comes in over this much, so its first loop does not start with a jolt. */
const BED_FADE_IN_MS = 120;

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
  /** On-demand cues asked for (prepare) before howler.js was there. */
  const wanted = new Set<SoundCue>();
  /** The spin bed's sound id while it plays, and the timers of its fade and end. */
  let bed: number | undefined;
  let bedTimers: ReturnType<typeof setTimeout>[] = [];
  const throttle = new CueThrottle();
  const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

  /**
   * One cue's Howl: the MP3 where the browser plays MP3 (played from its measured start,
   * past the codec's delay; the bed loops over exactly its own length), else the WAV.
   */
  function makeHowl(module: typeof import('howler'), cue: SoundCue): Howl {
    const source = SOURCES[cue];
    const mp3 = source.mp3 !== undefined && module.Howler.codecs('mp3');
    const startMs = mp3 ? MP3_LEAD_S * 1000 : 0;
    return new module.Howl({
      src: [mp3 ? source.mp3! : source.wav],
      format: [mp3 ? 'mp3' : 'wav'],
      volume: CUE_SETTINGS[cue].volume,
      preload: true,
      sprite: { main: cue === 'spin' ? [startMs, SPIN_BED_S * 1000, true] : [startMs, ONE_SHOT_MS] },
    });
  }

  /** Loads howler.js and every cue but the on-demand ones once; after a failure, audio stays off rather than throwing again. */
  function load(): Promise<void> {
    loading ??= import('howler')
      .then((module) => {
        howler = module;
        module.Howler.mute(muted);
        howls = new Map(
          SOUND_CUES.filter((cue) => !ON_DEMAND_CUES.includes(cue)).map((cue) => [cue, makeHowl(module, cue)]),
        );
        for (const cue of wanted) howls.set(cue, makeHowl(module, cue));
        if (waiting && !muted && now() - waiting.at <= LATE_PLAY_MS) start(waiting.cue);
        waiting = undefined;
      })
      .catch((error: unknown) => {
        broken = true;
        console.warn('audio unavailable:', error);
      });
    return loading;
  }

  /** Plays `cue` now; `spin` starts the bed, or keeps the one already playing (at its full level again). */
  function start(cue: SoundCue): void {
    const howl = howls?.get(cue);
    if (!howl) return;
    if (cue !== 'spin') {
      howl.play('main');
      return;
    }
    clearBedTimers();
    const volume = CUE_SETTINGS.spin.volume;
    if (bed !== undefined && howl.playing(bed)) {
      howl.fade(howl.volume(bed) as number, volume, 80, bed);
      return;
    }
    bed = howl.play('main');
    howl.fade(0, volume, BED_FADE_IN_MS, bed);
  }

  function clearBedTimers(): void {
    for (const timer of bedTimers) clearTimeout(timer);
    bedTimers = [];
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
    prepare(cue: SoundCue) {
      if (broken || !ON_DEMAND_CUES.includes(cue)) return;
      try {
        if (howler && howls) {
          if (!howls.has(cue)) howls.set(cue, makeHowl(howler, cue));
        } else wanted.add(cue);
      } catch {
        // Audio is decoration.
      }
    },
    endSpinBed(seconds: number) {
      const howl = howls?.get('spin');
      if (!howl || bed === undefined) return;
      const id = bed;
      clearBedTimers();
      try {
        const fadeS = Math.min(SPIN_BED_FADE_S, Math.max(0.05, seconds));
        bedTimers.push(
          setTimeout(
            () => howl.fade(howl.volume(id) as number, 0, fadeS * 1000, id),
            Math.max(0, seconds - fadeS) * 1000,
          ),
          setTimeout(
            () => {
              howl.stop(id);
              if (bed === id) bed = undefined;
            },
            Math.max(seconds, 0.05) * 1000 + 40,
          ),
        );
      } catch {
        // Audio is decoration.
      }
    },
    play(cue: SoundCue) {
      if (muted || broken || !throttle.allow(cue, now())) return;
      try {
        if (howls) start(cue);
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
