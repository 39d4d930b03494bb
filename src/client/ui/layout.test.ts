import { describe, expect, it } from 'vitest';
import { computeLayout, layoutScale, MIN_TAP, PLATE, pointsFontPx, type Layout, type Rect } from './layout.ts';

const inside = (r: Rect, l: Layout) => r.x >= 0 && r.y >= 0 && r.x + r.width <= l.width && r.y + r.height <= l.height;
const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** The plate around the cake, and the piping tip above it. */
const wheelBox = (w: { x: number; y: number; radius: number }): Rect => ({
  x: w.x - w.radius * PLATE,
  y: w.y - w.radius * 1.28,
  width: 2 * w.radius * PLATE,
  height: w.radius * (1.28 + PLATE),
});

describe('computeLayout', () => {
  it('gives the phone footer the height the page measured, and keeps the table above it', () => {
    const plain = computeLayout(390, 844);
    const tall = computeLayout(390, 844, 51.2);
    expect(tall.footer.height).toBe(52);
    expect(tall.footer.y + tall.footer.height).toBe(844);
    expect(tall.bar.y + tall.bar.height).toBe(tall.footer.y);
    expect(tall.bar.y).toBe(plain.bar.y - (52 - plain.footer.height));
    // A measure below the mode's own footer changes nothing; desktop keeps its one line.
    expect(computeLayout(390, 844, 10)).toEqual(plain);
    expect(computeLayout(1280, 720, 60)).toEqual(computeLayout(1280, 720));
  });

  it('desktop 1280×720: a row of four big wheels', () => {
    const l = computeLayout(1280, 720);
    expect(l.mode).toBe('desktop');
    expect(new Set(l.wheels.map((w) => w.y)).size).toBe(1);
    expect(l.wheels[0]!.radius).toBeGreaterThanOrEqual(120);
  });

  it('phones 320 to 359 px wide: every GO on screen at 44 px, bigger wheels than the 390 px metrics give, numbers ≥ 12 px', () => {
    for (const [width, height] of [
      [320, 568],
      [340, 640],
      [359, 740],
    ] as const) {
      const l = computeLayout(width, height, 52);
      expect(l.mode).toBe('portrait');
      for (const go of l.goButtons) {
        expect(inside(go, l)).toBe(true);
        expect(Math.min(go.width, go.height)).toBeGreaterThanOrEqual(MIN_TAP);
      }
      for (const [i, w] of l.wheels.entries()) {
        expect(inside(wheelBox(w), l)).toBe(true);
        expect(pointsFontPx(w.radius)).toBeGreaterThanOrEqual(12);
        for (const go of l.goButtons) expect(overlaps(wheelBox(w), go)).toBe(false);
        expect(wheelBox(w).y + wheelBox(w).height).toBeLessThanOrEqual(l.goButtons[i]!.y);
      }
      expect(l.header.height + l.bar.height).toBeLessThanOrEqual(48 + 126);
    }
    // At 320×568 the wheels get the room: 96 px across at least (78 px before).
    expect(computeLayout(320, 568, 52).wheels[0]!.radius * 2).toBeGreaterThanOrEqual(96);
  });

  it('mobile portrait 390×844: a 2 × 2 grid, tap targets at least 44 px', () => {
    const l = computeLayout(390, 844);
    expect(l.mode).toBe('portrait');
    expect(new Set(l.wheels.map((w) => w.y)).size).toBe(2);
    expect(new Set(l.wheels.map((w) => w.x)).size).toBe(2);
    for (const go of l.goButtons) expect(go.height).toBeGreaterThanOrEqual(MIN_TAP);
    expect(l.wheels[0]!.radius).toBeGreaterThanOrEqual(70);
  });

  it('mobile landscape 844×390: a row of four', () => {
    const l = computeLayout(844, 390);
    expect(l.mode).toBe('landscape');
    expect(new Set(l.wheels.map((w) => w.y)).size).toBe(1);
    for (const go of l.goButtons) expect(go.height).toBeGreaterThanOrEqual(MIN_TAP);
  });

  it('1280×720 and the phones: drawn at the design size (scale 1)', () => {
    const l = computeLayout(1280, 720);
    expect(l.scale).toBe(1);
    expect(l.wheels[0]!.radius).toBe(134.5);
    expect([l.header.height, l.bar.height, l.footer.height]).toEqual([64, 92, 28]);
    expect(l.goButtons[0]).toMatchObject({ width: 96, height: 48 });
    for (const [w, h] of [
      [390, 844],
      [844, 390],
      [320, 568],
      [2000, 480],
    ] as const)
      expect(computeLayout(w, h).scale).toBe(1);
  });

  it('1920×1080: everything 1.5 × bigger, the wheels past the old 150 px cap, still a row of four', () => {
    const l = computeLayout(1920, 1080);
    expect(l.scale).toBe(1.5);
    expect(new Set(l.wheels.map((w) => w.y)).size).toBe(1);
    expect(l.wheels[0]!.radius).toBeGreaterThanOrEqual(200);
    expect([l.header.height, l.bar.height, l.footer.height]).toEqual([96, 138, 42]);
    expect(l.goButtons[0]).toMatchObject({ width: 144, height: 72 });
  });

  it('grows with the smaller of the two ratios to 1280×720, at most twice', () => {
    expect(layoutScale('desktop', 1920, 800)).toBe(1.11);
    expect(layoutScale('desktop', 1366, 768)).toBe(1.06);
    expect(layoutScale('desktop', 3840, 2160)).toBe(2);
    expect(layoutScale('desktop', 1024, 768)).toBe(1);
    expect(layoutScale('portrait', 1920, 1080)).toBe(1);
  });

  for (const [w, h] of [
    [1280, 720],
    [390, 844],
    [844, 390],
    [1920, 1080],
    [1920, 800],
    [2560, 1440],
    [3840, 2160],
    [360, 640],
    [768, 1024],
  ] as const) {
    it(`${w}×${h}: wheels and GO buttons on screen, between header and bar, never overlapping`, () => {
      const l = computeLayout(w, h);
      const boxes = [...l.wheels.map(wheelBox), ...l.goButtons];
      for (const b of boxes) {
        expect(inside(b, l)).toBe(true);
        expect(b.y).toBeGreaterThanOrEqual(l.header.height - 0.5);
        expect(b.y + b.height).toBeLessThanOrEqual(l.bar.y + 0.5);
      }
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
    });
  }
});
