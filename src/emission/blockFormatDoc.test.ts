import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAIRS_BY_CODE } from './codes.ts';
import { blockPairCounts } from './split.ts';

/** docs/block-format.md's pair table, row by row: a stranger regenerates a block from it. */
function docRows(): string[][] {
  const text = fs.readFileSync('docs/block-format.md', 'utf8');
  const start = text.indexOf('| code | pair          | units per block |');
  expect(start).toBeGreaterThan(0);
  const lines = text.slice(start).split('\n');
  const rows: string[][] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const number = (cell: string) => Number(cell.replace(/[ ,]/g, ''));

describe('docs/block-format.md', () => {
  it('lists every pair with the code’s count per block and JEU 1 / JEU 2 split', () => {
    const counts = blockPairCounts();
    const rows = docRows();
    expect(rows.length).toBe(PAIRS_BY_CODE.length);
    rows.forEach(([code, key, units, lot, jeu1, jeu2], i) => {
      const pair = PAIRS_BY_CODE[i]!;
      expect({
        code: number(code!),
        key,
        units: number(units!),
        lot: number(lot!),
        jeu1: number(jeu1!),
        jeu2: number(jeu2!),
      }).toEqual({
        code: i,
        key: `\`${pair.key}\``,
        units: counts[i],
        lot: pair.lotPerEuroCents / 100,
        jeu1: pair.jeu1PerEuroCents / 100,
        jeu2: pair.jeu2PerEuroCents / 100,
      });
    });
    expect(rows.reduce((n, row) => n + number(row[2]!), 0)).toBe(1_000_000);
  });
});
