import { describe, expect, it } from 'vitest';
import type { Graphics } from 'pixi.js';
import { SYMBOLS } from '../../rules/unit.ts';
import { PALETTE } from './palette.ts';

import { createPipingTip, createSprinkle, createSymbol } from './symbols.ts';

describe('createSymbol', () => {
  for (const symbol of SYMBOLS) {
    for (const size of [28, 64, 128]) {
      it(`${symbol} at ${size} px fills most of its box, centred, without spilling out`, () => {
        const bounds = createSymbol(symbol, size).getLocalBounds();
        const half = size / 2;
        expect(bounds.minX).toBeGreaterThanOrEqual(-half);
        expect(bounds.minY).toBeGreaterThanOrEqual(-half);
        expect(bounds.maxX).toBeLessThanOrEqual(half);
        expect(bounds.maxY).toBeLessThanOrEqual(half);
        expect(Math.max(bounds.width, bounds.height)).toBeGreaterThan(size * 0.75);
        // Centred: no side of the box is much emptier than its opposite.
        expect(Math.abs(bounds.minX + bounds.maxX)).toBeLessThan(size * 0.12);
        expect(Math.abs(bounds.minY + bounds.maxY)).toBeLessThan(size * 0.12);
      });
    }
  }

  it('shares one drawing between instances of a symbol and draws each symbol differently', () => {
    const contextOf = (symbol: (typeof SYMBOLS)[number]) => (createSymbol(symbol, 40).children[0] as Graphics).context;
    expect(contextOf('bell')).toBe(contextOf('bell'));
    expect(new Set(SYMBOLS.map(contextOf)).size).toBe(SYMBOLS.length);
  });
});

describe('createPipingTip', () => {
  it('points at (0, 0) with the bag above it, size tall', () => {
    const bounds = createPipingTip(60).getLocalBounds();
    expect(bounds.maxY).toBeGreaterThan(0);
    expect(bounds.maxY).toBeLessThan(3);
    expect(bounds.minY).toBeGreaterThanOrEqual(-61);
    expect(bounds.minY).toBeLessThan(-55);
    expect(Math.abs(bounds.minX + bounds.maxX)).toBeLessThan(1);
    expect(bounds.width).toBeLessThanOrEqual(60);
  });
});

describe('createSprinkle', () => {
  it('is a small capsule of the requested length, centred', () => {
    const bounds = createSprinkle(PALETTE.gold, 12).getLocalBounds();
    expect(bounds.width).toBeGreaterThan(10);
    expect(bounds.width).toBeLessThan(14);
    expect(bounds.height).toBeLessThan(6);
    expect(Math.abs(bounds.minX + bounds.maxX)).toBeLessThan(0.5);
  });
});
