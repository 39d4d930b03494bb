/**
 * Synthesizes SPINCAKE's sounds and writes them as 16-bit mono 22 050 Hz WAV files, and the
 * longer ones also as MP3 (48 kbit/s, a seventh of the bytes; the game asks for the MP3 and
 * falls back to the WAV where the browser cannot play it):
 *
 *   npx tsx scripts/make-sounds.ts        → assets/sounds/*.wav, *.mp3
 *
 * Everything is made here from oscillators, envelopes and seeded noise, so the output is
 * the same on every run (src/client/audio/sounds.test.ts checks the committed files).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Mp3Encoder } from '@breezystack/lamejs';
import { SOUND_CUES, SPIN_BED_S } from '../src/client/audio/cues.ts';
import { mulberry32 } from '../src/common/seededRandom.ts';

export const SAMPLE_RATE = 22_050;
/** One sound per cue of the game (src/client/audio/cues.ts). */
export const SOUND_NAMES = SOUND_CUES;
export type SoundName = (typeof SOUND_NAMES)[number];
/**
 * The sounds also made as MP3. Not the short cues tied to a wheel's motion (tick, stop, click),
 * small as WAV anyway. An MP3 decodes with the codec's delay (about 50 ms) before its sound:
 * the game plays each from past it (MP3_LEAD_S in src/client/audio/cues.ts).
 */
export const MP3_SOUNDS: readonly SoundName[] = [
  'spin',
  'bell',
  'refund',
  'win-small',
  'win-big',
  'win-mega',
  'win-jackpot',
  'lose',
];

export const MP3_KBPS = 48;

const TAU = Math.PI * 2;

/** A buffer of `seconds` of silence. */
function silence(seconds: number): Float64Array {
  return new Float64Array(Math.round(seconds * SAMPLE_RATE));
}

/** Seeded uniform noise in [-1, 1), so renders are reproducible. */
function noise(seed: number): () => number {
  const random = mulberry32(seed);
  return () => random() * 2 - 1;
}

type Wave = 'sine' | 'triangle';
const oscillator = (wave: Wave, phase: number) =>
  wave === 'sine' ? Math.sin(phase * TAU) : 1 - 4 * Math.abs(((phase + 0.25) % 1) - 0.5);

interface Tone {
  /** Start, seconds. */
  at: number;
  /** Frequency in Hz, or a function of time since the start for glides. */
  freq: number | ((t: number) => number);
  duration: number;
  gain: number;
  wave?: Wave;
  attack?: number;
  /** Exponential decay time constant, seconds; the tail also fades to zero by `duration`. */
  decay?: number;
  /** Bell-like inharmonic partials: [frequency ratio, relative gain, decay multiplier]. */
  partials?: readonly (readonly [number, number, number])[];
}

/** Adds a tone into `out`. */
function addTone(out: Float64Array, tone: Tone): void {
  const { at, freq, duration, gain, wave = 'sine', attack = 0.004, decay = duration, partials = [[1, 1, 1]] } = tone;
  const start = Math.round(at * SAMPLE_RATE);
  const length = Math.min(Math.round(duration * SAMPLE_RATE), out.length - start);
  const phases = partials.map(() => 0);
  for (let i = 0; i < length; i++) {
    const t = i / SAMPLE_RATE;
    const f = typeof freq === 'number' ? freq : freq(t);
    const rise = Math.min(1, t / attack);
    const tail = Math.min(1, (duration - t) / 0.01);
    let sample = 0;
    partials.forEach(([ratio, partialGain, decayScale], p) => {
      phases[p] = ((phases[p] ?? 0) + (f * ratio) / SAMPLE_RATE) % 1;
      sample += oscillator(wave, phases[p] ?? 0) * partialGain * Math.exp(-t / (decay * decayScale));
    });
    out[start + i] = (out[start + i] ?? 0) + sample * gain * rise * tail;
  }
}

/**
 * Adds band-passed noise whose centre follows `centre(t)` and whose loudness follows
 * `envelope(t)`: `stages` Chamberlin state-variable band-passes in series (more stages,
 * a softer, narrower whoosh), each of resonance `q`.
 */
function addNoise(
  out: Float64Array,
  at: number,
  duration: number,
  seed: number,
  centre: (t: number) => number,
  envelope: (t: number) => number,
  q = 1.2,
  stages = 1,
): void {
  const random = noise(seed);
  const start = Math.round(at * SAMPLE_RATE);
  const length = Math.min(Math.round(duration * SAMPLE_RATE), out.length - start);
  const low = new Float64Array(stages);
  const band = new Float64Array(stages);
  for (let i = 0; i < length; i++) {
    const t = i / SAMPLE_RATE;
    const f = 2 * Math.sin((Math.PI * Math.min(centre(t), SAMPLE_RATE / 6)) / SAMPLE_RATE);
    let x = random();
    for (let k = 0; k < stages; k++) {
      const high = x - (low[k] ?? 0) - (band[k] ?? 0) / q;
      band[k] = (band[k] ?? 0) + f * high;
      low[k] = (low[k] ?? 0) + f * (band[k] ?? 0);
      x = band[k] ?? 0;
    }
    out[start + i] = (out[start + i] ?? 0) + x * envelope(t);
  }
}

/**
 * Scales to the given peak, so each sound sits at a chosen, soft level, and ramps the
 * first millisecond and the last five so no sound starts or ends with a click.
 */
function normalize(samples: Float64Array, peak: number): Float64Array {
  let max = 0;
  for (const s of samples) max = Math.max(max, Math.abs(s));
  const fadeIn = SAMPLE_RATE * 0.001;
  const fadeOut = SAMPLE_RATE * 0.005;
  for (let i = 0; i < samples.length; i++) {
    const edge = Math.min(1, i / fadeIn, (samples.length - 1 - i) / fadeOut);
    samples[i] = max > 0 ? ((samples[i] ?? 0) * peak * edge) / max : 0;
  }
  return samples;
}

const note = (semitonesFromA4: number) => 440 * 2 ** (semitonesFromA4 / 12);
const C5 = note(3);
const E5 = note(7);
const G5 = note(10);
const C6 = note(15);
const E6 = note(19);
const G6 = note(22);
const C7 = note(27);

/** A glassy chime: fundamental plus slightly inharmonic partials that die faster. */
const CHIME = [
  [1, 1, 1],
  [2.01, 0.35, 0.6],
  [3.02, 0.15, 0.35],
  [4.2, 0.06, 0.25],
] as const;

/**
 * A shimmer of short high chimes: `count` of them from `at`, every `step` seconds (a little
 * off at random), cycling through `notes`, each slightly detuned by up to `detune`.
 */
function addSparkles(
  out: Float64Array,
  s: { seed: number; count: number; at: number; step: number; notes: readonly number[]; gain: number; detune: number },
): void {
  const random = noise(s.seed);
  for (let i = 0; i < s.count; i++) {
    const freq = s.notes[i % s.notes.length] ?? C7;
    addTone(out, {
      at: s.at + i * s.step + random() * 0.02,
      freq: freq * (1 + random() * s.detune),
      duration: 0.25,
      gain: s.gain,
      decay: 0.07,
      partials: CHIME,
    });
  }
}

const RECIPES: Record<SoundName, () => Float64Array> = {
  // The cursor flicking over a segment boundary: a tiny woody tock, 25 ms.
  tick() {
    const out = silence(0.025);
    addTone(out, { at: 0, freq: (t) => 1900 - 12_000 * t, duration: 0.025, gain: 1, attack: 0.0008, decay: 0.005 });
    addNoise(
      out,
      0,
      0.012,
      7,
      () => 3200,
      (t) => Math.exp(-t / 0.002),
      2,
    );
    return normalize(out, 0.35);
  },
  // The spin bed: the whirr of the stands turning, a soft band of air with a low hum,
  // pulsing six times per loop and at its lowest where the loop joins (no seam to hear).
  spin() {
    const out = silence(SPIN_BED_S);
    const pulse = (t: number) => 0.55 - 0.45 * Math.cos((t / SPIN_BED_S) * TAU * 6);
    addNoise(
      out,
      0,
      SPIN_BED_S,
      11,
      (t) => 700 + 250 * Math.sin((t / SPIN_BED_S) * TAU * 2),
      (t) => 0.8 * pulse(t),
      1.5,
      2,
    );
    addTone(out, {
      at: 0,
      freq: 98,
      duration: SPIN_BED_S,
      gain: 0.05,
      wave: 'triangle',
      attack: 0.001,
      decay: 100,
    });
    for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * (0.35 + 0.65 * pulse(i / SAMPLE_RATE));
    return normalize(out, 0.4);
  },
  // The wheel settling: a soft low thunk.
  stop() {
    const out = silence(0.18);
    addTone(out, { at: 0, freq: (t) => 70 + 110 * Math.exp(-t / 0.03), duration: 0.18, gain: 1, decay: 0.05 });
    addTone(out, { at: 0, freq: 330, duration: 0.05, gain: 0.15, wave: 'triangle', decay: 0.012 });
    addNoise(
      out,
      0,
      0.03,
      13,
      () => 900,
      (t) => 0.6 * Math.exp(-t / 0.006),
    );
    return normalize(out, 0.6);
  },
  // A bell found, or a JEU won: three rising chimes.
  bell() {
    const out = silence(0.75);
    [E6, G6, C7].forEach((freq, i) =>
      addTone(out, { at: i * 0.07, freq, duration: 0.75 - i * 0.07, gain: 1 - i * 0.15, decay: 0.22, partials: CHIME }),
    );
    return normalize(out, 0.5);
  },
  // The stake back: one soft two-note chime, short and quiet (no celebration).
  refund() {
    const out = silence(0.5);
    addTone(out, { at: 0, freq: G5, duration: 0.3, gain: 0.6, decay: 0.12, partials: CHIME });
    addTone(out, { at: 0.11, freq: C6, duration: 0.39, gain: 0.6, decay: 0.15, partials: CHIME });
    return normalize(out, 0.4);
  },
  // A small total: a quick major arpeggio ending on a chime.
  'win-small'() {
    const out = silence(0.8);
    [C5, E5, G5].forEach((freq, i) =>
      addTone(out, { at: i * 0.09, freq, duration: 0.22, gain: 0.8, wave: 'triangle', decay: 0.09 }),
    );
    addTone(out, { at: 0.27, freq: C6, duration: 0.53, gain: 0.9, decay: 0.2, partials: CHIME });
    return normalize(out, 0.6);
  },
  // A big total: a longer run up, a held chord and a shimmer of high sparkles.
  'win-big'() {
    const out = silence(1.7);
    [C5, E5, G5, C6, E5, G5, C6, E6].forEach((freq, i) =>
      addTone(out, { at: i * 0.085, freq, duration: 0.24, gain: 0.7, wave: 'triangle', decay: 0.1 }),
    );
    for (const freq of [C5, E5, G5, C6]) {
      addTone(out, { at: 0.7, freq, duration: 1.0, gain: 0.45, wave: 'triangle', attack: 0.02, decay: 0.45 });
    }
    addTone(out, { at: 0.7, freq: C7, duration: 1.0, gain: 0.5, decay: 0.3, partials: CHIME });
    addSparkles(out, { seed: 17, count: 9, at: 0.75, step: 0.08, notes: [E6, G6, C7], gain: 0.25, detune: 0.01 });
    return normalize(out, 0.7);
  },
  // A mega lot (1 000 ×): two octaves of run, a held chord under a chime, a long shimmer.
  'win-mega'() {
    const out = silence(2.0);
    [C5, E5, G5, C6, E6, G6, C7].forEach((freq, i) =>
      addTone(out, { at: i * 0.075, freq, duration: 0.26, gain: 0.65, wave: 'triangle', decay: 0.11 }),
    );
    for (const freq of [C5, E5, G5, C6, E6]) {
      addTone(out, { at: 0.55, freq, duration: 1.45, gain: 0.4, wave: 'triangle', attack: 0.03, decay: 0.6 });
    }
    addTone(out, { at: 0.55, freq: C7, duration: 1.45, gain: 0.5, decay: 0.45, partials: CHIME });
    addSparkles(out, { seed: 19, count: 16, at: 0.6, step: 0.07, notes: [E6, G6, C7, G6], gain: 0.22, detune: 0.01 });
    return normalize(out, 0.7);
  },
  // The jackpot (20 000 ×): a fanfare of three chords climbing to a held tonic, bells over it.
  'win-jackpot'() {
    const out = silence(3.0);
    const F5 = note(8);
    const A5 = note(12);
    const D6 = note(17);
    const B5 = note(14);
    const chords = [
      [C5, E5, G5],
      [F5, A5, C6],
      [G5, B5, D6],
    ];
    chords.forEach((chord, c) => {
      for (const freq of chord) {
        addTone(out, { at: c * 0.32, freq, duration: 0.3, gain: 0.45, wave: 'triangle', attack: 0.01, decay: 0.16 });
      }
    });
    for (const freq of [C5, E5, G5, C6, E6, G6]) {
      addTone(out, { at: 0.96, freq, duration: 2.04, gain: 0.32, wave: 'triangle', attack: 0.04, decay: 0.9 });
    }
    [C6, E6, G6, C7].forEach((freq, i) =>
      addTone(out, { at: 0.96 + i * 0.12, freq, duration: 1.6, gain: 0.5, decay: 0.4, partials: CHIME }),
    );
    addSparkles(out, { seed: 23, count: 26, at: 1.1, step: 0.065, notes: [E6, G6, C7], gain: 0.2, detune: 0.012 });
    return normalize(out, 0.7);
  },
  // A losing unit: two soft falling notes, kind rather than sad.
  lose() {
    const out = silence(0.8);
    const soft = [
      [1, 1, 1],
      [2, 0.2, 0.5],
    ] as const;
    addTone(out, { at: 0, freq: note(-2), duration: 0.32, gain: 0.8, attack: 0.02, decay: 0.2, partials: soft });
    addTone(out, {
      at: 0.26,
      freq: (t) => note(-6) * (1 - 0.04 * Math.min(1, t / 0.5)) * (1 + 0.006 * Math.sin(t * TAU * 5)),
      duration: 0.54,
      gain: 0.85,
      attack: 0.03,
      decay: 0.25,
      partials: soft,
    });
    return normalize(out, 0.5);
  },
  // A button press: a short rounded blip.
  click() {
    const out = silence(0.045);
    addTone(out, { at: 0, freq: (t) => 1300 - 9000 * t, duration: 0.045, gain: 1, attack: 0.001, decay: 0.012 });
    return normalize(out, 0.45);
  },
};

/** 16-bit PCM mono WAV bytes of `samples` (floats in [-1, 1]). */
export function encodeWav(samples: Float64Array): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) view.setUint8(offset + i, value.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  toInt16(samples).forEach((s, i) => view.setInt16(44 + i * 2, s, true));
  return bytes;
}

/** The 16-bit samples both encodings share. */
function toInt16(samples: Float64Array): Int16Array {
  return Int16Array.from(samples, (s) => Math.round(Math.max(-1, Math.min(1, s)) * 32767));
}

/** Mono MP3 bytes of `samples` at MP3_KBPS (LAME's algorithm in JavaScript: the same bytes on every run). */
export function encodeMp3(samples: Float64Array): Uint8Array {
  const encoder = new Mp3Encoder(1, SAMPLE_RATE, MP3_KBPS);
  const pcm = toInt16(samples);
  const parts: Uint8Array[] = [];
  // 1152 samples: one MPEG frame's worth per call.
  for (let at = 0; at < pcm.length; at += 1152) parts.push(encoder.encodeBuffer(pcm.subarray(at, at + 1152)));
  parts.push(encoder.flush());
  const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    // The encoder hands out signed bytes: copy them as the unsigned bytes they are.
    bytes.set(new Uint8Array(part.buffer, part.byteOffset, part.length), offset);
    offset += part.length;
  }
  return bytes;
}

/** Every sound file, rendered and encoded, by file name (`bell.wav`, `bell.mp3`, …). */
export function renderSounds(): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of SOUND_NAMES) {
    const samples = RECIPES[name]();
    files.set(`${name}.wav`, encodeWav(samples));
    if (MP3_SOUNDS.includes(name)) files.set(`${name}.mp3`, encodeMp3(samples));
  }
  return files;
}

export const SOUNDS_DIR = resolve(import.meta.dirname, '..', 'assets', 'sounds');

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(SOUNDS_DIR, { recursive: true });
  let total = 0;
  for (const [file, bytes] of renderSounds()) {
    writeFileSync(join(SOUNDS_DIR, file), bytes);
    total += bytes.length;
    console.log(`${file}  ${bytes.length} bytes`);
  }
  console.log(`total ${total} bytes in ${SOUNDS_DIR}`);
}
