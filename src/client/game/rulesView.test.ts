import { describe, expect, it } from 'vitest';
import { addedOnlyLotsPerEuro, blockTable, rulesView } from './rulesView.ts';

/** Checked against the regulation's own text (Articles 3.1–3.4, 4.6, 4.7). */
describe('rulesView', () => {
  it('gives each stake’s block as Article 3 does, with its total line', () => {
    const one = blockTable(100);
    expect(one.rows.map((r) => [r.count, r.lotCents / 100, r.totalCents / 100])).toEqual([
      [1, 20_000, 20_000],
      [3, 1_000, 3_000],
      [40, 100, 4_000],
      [250, 20, 5_000],
      [6_675, 10, 66_750],
      [50_000, 7, 350_000],
      [57_100, 2, 114_200],
      [137_050, 1, 137_050],
    ]);
    expect([one.winningUnits, one.totalCents / 100]).toEqual([251_119, 700_000]);
    const three = blockTable(300);
    expect(three.rows.map((r) => r.totalCents / 100)).toEqual([
      60_000, 9_000, 12_000, 15_000, 200_250, 1_050_000, 342_600, 411_150,
    ]);
    expect(three.totalCents / 100).toBe(2_100_000);
    expect(blockTable(200).totalCents / 100).toBe(1_400_000);
    expect(blockTable(500).totalCents / 100).toBe(3_500_000);
  });

  it('names the lots reached only by adding JEU 1 and JEU 2: 20 000, 7 and 1 × the stake', () => {
    expect(addedOnlyLotsPerEuro()).toEqual([2_000_000, 700, 100]);
    expect(blockTable(500).addedOnlyCents).toEqual([10_000_000, 3_500, 500]);
    expect(blockTable(200).addedOnlyCents).toEqual([4_000_000, 1_400, 200]);
  });

  it('gives JEU 1 and JEU 2 at every stake, the odds and the payout rate', () => {
    const view = rulesView();
    expect(view.jeu1.map((r) => [r.bells, ...r.winCents])).toEqual([
      [4, 1_000_000, 2_000_000, 3_000_000, 5_000_000],
      [3, 10_000, 20_000, 30_000, 50_000],
      [2, 500, 1_000, 1_500, 2_500],
      [1, 50, 100, 150, 250],
    ]);
    expect(view.jeu2.map((r) => [r.minPoints, r.maxPoints, r.winCents[3]])).toEqual([
      [400, 599, 250],
      [600, 799, 1_000],
      [800, 999, 2_500],
      [1000, 1249, 5_000],
      [1250, 1499, 10_000],
      [1500, 1749, 50_000],
      [1750, 1999, 500_000],
      [2000, 2000, 5_000_000],
    ]);
    expect(view.oneInHundredths).toBe(398);
    expect(view.payoutBasisPoints).toBe(7_000);
    expect(view.blocks.map((b) => b.stake)).toEqual([100, 200, 300, 500]);
  });
});
