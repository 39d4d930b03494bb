import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { fr } from './fr.ts';
import { formatSignedCents, typeset, typesetStrings } from './typography.ts';

const NNBSP = '\u202f';
const NBSP = '\u00a0';

/** Every plain string in `value` (nested objects and arrays), functions left out. */
function staticStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(staticStrings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(staticStrings);
  return [];
}

describe('typeset (French)', () => {
  it('puts a narrow no-break space before « : ; ! ? », with or without a space before', () => {
    expect(typeset('Roue 1 : 50 points', 'fr')).toBe(`Roue 1${NNBSP}: 50${NBSP}points`);
    expect(typeset('Gagné !', 'fr')).toBe(`Gagné${NNBSP}!`);
    expect(typeset('Gagné!', 'fr')).toBe(`Gagné${NNBSP}!`);
    expect(typeset('Pourquoi ? Parce que ; voilà', 'fr')).toBe(`Pourquoi${NNBSP}? Parce que${NNBSP}; voilà`);
    // A time or a reference keeps its colon as it is.
    expect(typeset('à 18:30', 'fr')).toBe('à 18:30');
  });

  it('puts narrow no-break spaces inside « »', () => {
    expect(typeset('« Jouer »', 'fr')).toBe(`«${NNBSP}Jouer${NNBSP}»`);
    expect(typeset('«Jouer»', 'fr')).toBe(`«${NNBSP}Jouer${NNBSP}»`);
  });

  it('keeps a number with its unit, and writes a true minus sign', () => {
    expect(typeset('100 points, 3 €, 70 %', 'fr')).toBe(`100${NBSP}points, 3${NBSP}€, 70${NBSP}%`);
    expect(typeset('net : -1 €', 'fr')).toBe(`net${NNBSP}: \u22121${NBSP}€`);
    // A phone number's groups and a date are no units.
    expect(typeset('09 74 75 13 13 (appel', 'fr')).toBe('09 74 75 13 13 (appel');
    expect(typeset('le 1 juillet 2026 à 08:00', 'fr')).toBe('le 1 juillet 2026 à 08:00');
  });

  it('changes nothing the second time', () => {
    for (const text of [...staticStrings(fr), fr.sessionLine('2 min', '3 €', '0 €', '-3 €')]) {
      expect(typeset(typeset(text, 'fr'), 'fr')).toBe(typeset(text, 'fr'));
    }
  });
});

describe('the strings the player reads', () => {
  it('are typeset in French: no ordinary space before « : ; ! ? » or inside « », none after a figure', () => {
    const samples = [
      ...staticStrings(fr),
      fr.wheelResult(1, 50, 'cloche'),
      fr.sessionLine('2 min', '3\u00a0€', '0\u00a0€', '-3\u00a0€'),
      fr.purchasePending('1\u00a0€'),
      fr.balanceTooLow('0,50\u00a0€', '1\u00a0€'),
      fr.points(100),
      fr.rulesOdds('3,98', '70 %'),
    ];
    for (const text of samples) {
      expect(text, text).not.toMatch(/[ \u00a0][:;!?»]/u);
      expect(text, text).not.toMatch(/«[ \u00a0]/u);
      expect(text, text).not.toMatch(/\d (€|%|points|lots|cloches?)/u);
      expect(text, text).not.toMatch(/(^|\s)-\d/u);
    }
    expect(fr.youWin).toBe(`Gagné${NNBSP}!`);
    expect(fr.wheelResult(2, 100, 'cloche')).toBe(`Roue 2${NNBSP}: 100${NBSP}points, cloche`);
  });

  it('say "No bells" in English, and write euros as the stake buttons do (€1)', () => {
    expect(en.bellsFound(0)).toBe('No bells');
    for (const text of staticStrings(en)) expect(text, text).not.toMatch(/\d[ \u00a0]?€/u);
    expect(en.youWin).toBe('You win!');
  });

  it('typeset what a function returns, and nested objects', () => {
    const strings = typesetStrings({ a: 'Oui !', b: { c: (n: number) => `${n} points` }, d: ['« x »'] }, 'fr');
    expect(strings).toMatchObject({ a: `Oui${NNBSP}!`, d: [`«${NNBSP}x${NNBSP}»`] });
    expect(strings.b.c(3)).toBe(`3${NBSP}points`);
  });
});

describe('formatSignedCents', () => {
  it('says the sign of a net result, with a true minus sign', () => {
    expect(formatSignedCents(-100, 'fr')).toBe(`\u22121${NBSP}€`);
    expect(formatSignedCents(1_900, 'fr')).toBe(`+19${NBSP}€`);
    expect(formatSignedCents(0, 'fr')).toBe(`0${NBSP}€`);
    expect(formatSignedCents(-150, 'en')).toBe('\u2212€1.50');
  });
});
