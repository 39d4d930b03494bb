import { describe, expect, it } from 'vitest';
import { fr } from '../i18n/fr.ts';
import { FakeAudio, FakeControls, FakeTable, makePlay } from './fakes.ts';
import { announceResult, celebrateResult, glowingWheels } from './reveal.ts';

function out() {
  return {
    table: new FakeTable(),
    controls: new FakeControls(),
    audio: new FakeAudio(),
    strings: fr,
    locale: 'fr' as const,
    reducedMotion: false,
  };
}

describe('the reveal', () => {
  it('glows the bells when JEU 1 won, every wheel when JEU 2 won, none on a loss', () => {
    const jeu1Only = makePlay({ bells: 2, points: 0 });
    expect(jeu1Only.jeu1.winCents).toBeGreaterThan(0);
    expect(jeu1Only.jeu2.winCents).toBe(0);
    expect(glowingWheels(jeu1Only)).toEqual([true, true, false, false]);
    expect(glowingWheels(makePlay({ points: 0 }))).toEqual([false, false, false, false]);
    const jeu2 = makePlay({ points: 500 });
    expect(jeu2.jeu2.winCents).toBeGreaterThan(0);
    expect(glowingWheels(jeu2)).toEqual([true, true, true, true]);
  });

  it('celebrates with the level’s sprinkles and cue', () => {
    const o = out();
    celebrateResult(makePlay({ points: 0 }), o);
    expect(o.table.celebrations.map((c) => c.level.rank)).toEqual([0]);
    expect(o.audio.cues).toEqual(['lose']);
  });

  it('announces JEU 1, JEU 2 and the total', () => {
    const o = out();
    const play = makePlay({ points: 0 });
    announceResult(play, o);
    expect(o.controls.announced).toEqual([
      fr.resultLine(fr.jeu1, fr.bellsFound(0), fr.noWin),
      fr.resultLine(fr.jeu2, fr.pointsTotal(0), fr.noWin),
      fr.lostTitle,
    ]);
  });
});
