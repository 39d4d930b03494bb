// Tests run in Node: reading the committed files is how we prove the script made them.
// eslint-disable-next-line no-restricted-imports
import { readFileSync, readdirSync, statSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE, SOUNDS_DIR, SOUND_NAMES, renderSounds } from '../../../scripts/make-sounds.ts';
import { SOUND_CUES } from './cues.ts';

const rendered = renderSounds();

describe('assets/sounds', () => {
  it('has one sound per cue, and nothing else', () => {
    expect([...SOUND_NAMES].sort()).toEqual([...SOUND_CUES].sort());
    expect(readdirSync(SOUNDS_DIR).sort()).toEqual(SOUND_NAMES.map((name) => `${name}.wav`).sort());
  });

  for (const name of SOUND_NAMES) {
    it(`${name}.wav is exactly what scripts/make-sounds.ts renders`, () => {
      const committed = readFileSync(join(SOUNDS_DIR, `${name}.wav`));
      const fresh = rendered.get(name);
      expect(fresh).toBeDefined();
      expect(Buffer.compare(committed, Buffer.from(fresh as Uint8Array))).toBe(0);
    });

    it(`${name}.wav is 16-bit mono ${SAMPLE_RATE} Hz PCM, short, soft, and click-free at its ends`, () => {
      const bytes = Buffer.from(rendered.get(name) as Uint8Array);
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
      expect(seconds).toBeLessThanOrEqual(name === 'win-big' ? 2 : 1);
      let peak = 0;
      for (let i = 0; i < samples; i++) peak = Math.max(peak, Math.abs(bytes.readInt16LE(44 + i * 2)));
      expect(peak / 32767).toBeGreaterThan(0.2);
      expect(peak / 32767).toBeLessThanOrEqual(0.71);
      expect(Math.abs(bytes.readInt16LE(44))).toBeLessThan(50);
      expect(Math.abs(bytes.readInt16LE(bytes.length - 2))).toBeLessThan(50);
    });
  }

  it('the tick is the shortest sound, and all of them weigh under 300 KB', () => {
    const sizes = SOUND_NAMES.map((name) => statSync(join(SOUNDS_DIR, `${name}.wav`)).size);
    expect(Math.min(...sizes)).toBe(statSync(join(SOUNDS_DIR, 'tick.wav')).size);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(300 * 1024);
  });
});
