import type { Cents } from './money.ts';
import type { StakeCents } from './stakes.ts';
import { jeu1WinCents, jeu2WinCents, pairOf } from './tables.ts';
import { BELL, cursorSegments, unitShapeProblems, type Unit, type Wheel } from './unit.ts';

export interface Evaluation {
  bells: number;
  points: number;
  jeu1WinCents: Cents;
  jeu2WinCents: Cents;
  /** JEU 1 + JEU 2: one single indivisible lot (4.8). */
  winCents: Cents;
}

/** Articles 4.5–4.8: what the four cursors show, and what it wins. */
export function evaluateWheels(wheels: readonly Wheel[], stake: StakeCents): Evaluation {
  const shown = cursorSegments(wheels);
  const bells = shown.filter((s) => s.symbol === BELL).length;
  const points = shown.reduce((sum, s) => sum + s.points, 0);
  const jeu1 = jeu1WinCents(bells, stake);
  const jeu2 = jeu2WinCents(points, stake);
  return { bells, points, jeu1WinCents: jeu1, jeu2WinCents: jeu2, winCents: jeu1 + jeu2 };
}

export function evaluate(unit: Unit): Evaluation {
  return evaluateWheels(unit.wheels, unit.stakeCents);
}

/**
 * Every reason a unit may not be sold: a malformed shape, or cursors that show a
 * combination whose lot the block table lacks (e.g. one bell with 300 points).
 */
export function unitProblems(unit: unknown): string[] {
  const shape = unitShapeProblems(unit);
  if (shape.length > 0) return shape;
  const u = unit as Unit;
  const { bells, points } = evaluate(u);
  if (!pairOf(bells, points)) return [`cursors show ${bells} bell(s) and ${points} points, a lot that no block holds`];
  return [];
}
