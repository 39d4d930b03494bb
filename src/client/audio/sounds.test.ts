// Tests run in Node: reading the committed files is how we prove the script made them.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MP3_KBPS,
  MP3_SOUNDS,
  SAMPLE_RATE,
  SOUNDS_DIR,
  SOUND_NAMES,
  renderSounds,
} from '../../../scripts/make-sounds.ts';
import { ON_DEMAND_CUES, SOUND_CUES, SPIN_BED_S } from './cues.ts';

/** The longest each sound may be: the bed loops, the big tiers' cues grow with their takeovers. */
const LONGEST_S: Partial<Record<string, number>> = {
  spin: SPIN_BED_S,
  'win-big': 2,
  'win-mega': 2,
  'win-jackpot': 3,
};

const rendered = renderSounds();

describe('assets/sounds', () => {
  it('has one sound per cue, and nothing else', () => {
    expect([...SOUND_NAMES].sort()).toEqual([...SOUND_CUES].sort());
    expect(readdirSync(SOUNDS_DIR).sort()).toEqual([...rendered.keys()].sort());
    expect([...rendered.keys()].sort()).toEqual(
      [...SOUND_NAMES.map((name) => `${name}.wav`), ...MP3_SOUNDS.map((name) => `${name}.mp3`)].sort(),
    );
  });

  for (const name of MP3_SOUNDS) {
    it(`${name}.mp3 is exactly what scripts/make-sounds.ts renders: MPEG-2 layer III frames, mono, ${SAMPLE_RATE} Hz, ${MP3_KBPS} kbit/s, lasting as long as the WAV`, () => {
      const committed = readFileSync(join(SOUNDS_DIR, `${name}.mp3`));
      expect(Buffer.compare(committed, Buffer.from(rendered.get(`${name}.mp3`) as Uint8Array))).toBe(0);
      // Walk the frames: every one starts with a sync word and the same header fields.
      let frames = 0;
      for (let at = 0; at < committed.length; frames++) {
        const header = committed.readUInt32BE(at);
        expect(header >>> 21).toBe(0x7ff); // frame sync
        expect((header >>> 19) & 0b11).toBe(0b10); // MPEG-2 (the 22.05 kHz family)
        expect((header >>> 17) & 0b11).toBe(0b01); // layer III
        expect((header >>> 12) & 0b1111).toBe(6); // 48 kbit/s in MPEG-2 layer III's table
        expect((header >>> 10) & 0b11).toBe(0); // 22 050 Hz
        expect((header >>> 6) & 0b11).toBe(0b11); // mono
        const padding = (header >>> 9) & 1;
        at += Math.floor((72 * MP3_KBPS * 1000) / SAMPLE_RATE) + padding;
      }
      const wavSamples = (rendered.get(`${name}.wav`) as Uint8Array).length / 2;
      // 576 samples per MPEG-2 frame; LAME adds its encoder padding (under 3 frames) at the ends.
      expect(frames * 576).toBeGreaterThanOrEqual(wavSamples - 22);
      expect(frames * 576).toBeLessThan(wavSamples + 4 * 576);
      expect(committed.length).toBeLessThan((rendered.get(`${name}.wav`) as Uint8Array).length / 5);
    });
  }

  for (const name of SOUND_NAMES) {
    it(`${name}.wav is exactly what scripts/make-sounds.ts renders`, () => {
      const committed = readFileSync(join(SOUNDS_DIR, `${name}.wav`));
      const fresh = rendered.get(`${name}.wav`);
      expect(fresh).toBeDefined();
      expect(Buffer.compare(committed, Buffer.from(fresh as Uint8Array))).toBe(0);
    });

    it(`${name}.wav is 16-bit mono ${SAMPLE_RATE} Hz PCM, short, soft, and click-free at its ends`, () => {
      const bytes = Buffer.from(rendered.get(`${name}.wav`) as Uint8Array);
      expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
      expect(bytes.toString('ascii', 8, 16)).toBe('WAVEfmt ');
      expect(bytes.readUInt16LE(20)).toBe(1);
      expect(bytes.readUInt16LE(22)).toBe(1);
      expect(bytes.readUInt32LE(24)).toBe(SAMPLE_RATE);
      expect(bytes.readUInt16LE(34)).toBe(16);
      expect(bytes.toString('ascii', 36, 40)).toBe('data');
      const samples = bytes.readUInt32LE(40) / 2;
      expect(44 + samples * 2).toBe(bytes.length);
      const seconds = samples / SAMPLE_RATE;
      expect(seconds).toBeGreaterThan(0.02);
      expect(seconds).toBeLessThanOrEqual(LONGEST_S[name] ?? 1);
      let peak = 0;
      for (let i = 0; i < samples; i++) peak = Math.max(peak, Math.abs(bytes.readInt16LE(44 + i * 2)));
      expect(peak / 32767).toBeGreaterThan(0.2);
      expect(peak / 32767).toBeLessThanOrEqual(0.71);
      expect(Math.abs(bytes.readInt16LE(44))).toBeLessThan(50);
      expect(Math.abs(bytes.readInt16LE(bytes.length - 2))).toBeLessThan(50);
    });
  }

  it('the tick is the shortest sound, and what a browser playing MP3 loads up front weighs under 60 KB', () => {
    // The on-demand cues are fetched only for a round that needs them (AudioOut.prepare).
    const upFront = SOUND_NAMES.filter((name) => !ON_DEMAND_CUES.includes(name));
    const sizes = upFront.map((name) => statSync(join(SOUNDS_DIR, `${name}.wav`)).size);
    expect(Math.min(...sizes)).toBe(statSync(join(SOUNDS_DIR, 'tick.wav')).size);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(300 * 1024);
    const loaded = upFront.map(
      (name) => statSync(join(SOUNDS_DIR, MP3_SOUNDS.includes(name) ? `${name}.mp3` : `${name}.wav`)).size,
    );
    expect(loaded.reduce((a, b) => a + b, 0)).toBeLessThan(60 * 1024);
  });
});
