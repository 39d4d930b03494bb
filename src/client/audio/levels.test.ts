import { describe, expect, it } from 'vitest';
import { renderSounds, SAMPLE_RATE } from '../../../scripts/make-sounds.ts';
import { WIN_LEVELS } from '../game/winLevels.ts';
import { CUE_SETTINGS } from './cues.ts';

const rendered = renderSounds();

/** How loud a cue plays: the RMS of its loudest 300 ms, at the volume the game plays it. */
function loudness(cue: keyof typeof CUE_SETTINGS): number {
  const bytes = Buffer.from(rendered.get(`${cue}.wav`)!);
  const samples = Array.from({ length: (bytes.length - 44) / 2 }, (_, i) => bytes.readInt16LE(44 + i * 2) / 32767);
  const window = Math.round(0.3 * SAMPLE_RATE);
  let best = 0;
  for (let at = 0; at + window <= samples.length || at === 0; at += Math.round(window / 4)) {
    const part = samples.slice(at, at + window);
    best = Math.max(best, Math.sqrt(part.reduce((sum, s) => sum + s * s, 0) / part.length));
    if (at + window >= samples.length) break;
  }
  return best * CUE_SETTINGS[cue].volume;
}

describe('result cue levels', () => {
  it('gives every tier a cue of its own, each louder than the tier below, a loss the quietest', () => {
    const cues = WIN_LEVELS.map((l) => l.cue);
    expect(new Set(cues).size).toBe(WIN_LEVELS.length);
    const levels = cues.map(loudness);
    for (let i = 1; i < levels.length; i++) expect(levels[i]).toBeGreaterThan(levels[i - 1]!);
  });
});
