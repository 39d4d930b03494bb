import { describe, expect, it } from 'vitest';
import { assertCents, formatCents, formatCount, isCents } from './money.ts';

const NBSP = '\u00a0';

describe('money', () => {
  it('formats French amounts the regulation way', () => {
    expect(formatCents(50)).toBe(`0,50${NBSP}€`);
    expect(formatCents(250)).toBe(`2,50${NBSP}€`);
    expect(formatCents(700)).toBe(`7${NBSP}€`);
    expect(formatCents(2_000_000)).toBe(`20${NBSP}000${NBSP}€`);
    expect(formatCents(10_000_000)).toBe(`100${NBSP}000${NBSP}€`);
    expect(formatCents(123_456_789)).toBe(`1${NBSP}234${NBSP}567,89${NBSP}€`);
    expect(formatCents(-150)).toBe(`-1,50${NBSP}€`);
    expect(formatCents(5)).toBe(`0,05${NBSP}€`);
  });

  it('formats English amounts', () => {
    expect(formatCents(50, 'en')).toBe('€0.50');
    expect(formatCents(2_000_000, 'en')).toBe('€20,000');
  });

  it('refuses anything but integer cents', () => {
    expect(isCents(1.5)).toBe(false);
    expect(isCents('100')).toBe(false);
    expect(isCents(Number.MAX_SAFE_INTEGER + 1)).toBe(false);
    expect(() => assertCents(0.1)).toThrow(RangeError);
    expect(() => formatCents(Number.NaN)).toThrow(RangeError);
  });

  it('groups counts like amounts: points on the result card and in the rules', () => {
    expect(formatCount(400)).toBe('400');
    expect(formatCount(2000)).toBe(`2${NBSP}000`);
    expect(formatCount(1_000_000)).toBe(`1${NBSP}000${NBSP}000`);
    expect(formatCount(2000, 'en')).toBe('2,000');
    expect(() => formatCount(1.5)).toThrow(RangeError);
  });
});
