import { createCipheriv, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateBlock } from './index.ts';

/**
 * An independent re-implementation of docs/block-format.md's "Generation, reproducibly",
 * written from the document alone (its own tables, node:crypto only): if the document
 * and the generator ever disagree, this fails.
 */
const tupleCache = new Map<string, number[][]>();
function cursorPoints(min: number, max: number): number[][] {
  const key = `${min}-${max}`;
  if (!tupleCache.has(key)) {
    const tuples: number[][] = [];
    for (let t = 0; t < 11 ** 4; t++) {
      const p = [t % 11, Math.floor(t / 11) % 11, Math.floor(t / 121) % 11, Math.floor(t / 1331) % 11];
      const total = 50 * p.reduce((a, b) => a + b, 0);
      if (total >= min && total <= max) tuples.push(p);
    }
    tupleCache.set(key, tuples);
  }
  return tupleCache.get(key)!;
}

function referenceBody(seedHex: string, count: number): Uint8Array {
  const seed = Buffer.from(seedHex, 'hex');
  const stream = (purpose: string) => {
    const key = createHash('sha256').update(`SPINCAKE block v1 ${purpose}\0`).update(seed).digest();
    const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
    let chunk = Buffer.alloc(0);
    let pos = 0;
    const take = (bytes: number) => {
      if (pos + bytes > chunk.length) {
        chunk = cipher.update(Buffer.alloc(262_144));
        pos = 0;
      }
      const value = bytes === 1 ? chunk[pos]! : bytes === 2 ? chunk.readUInt16LE(pos) : chunk.readUInt32LE(pos);
      pos += bytes;
      return value;
    };
    const draw = (bytes: number, range: number) => (n: number) => {
      for (;;) {
        const x = take(bytes);
        if (x < range - (range % n)) return x % n;
      }
    };
    return { small: draw(1, 256), medium: draw(2, 65_536), large: draw(4, 2 ** 32) };
  };
  // Pair codes 0–10 with their cursor rules and block counts, as in the document's tables.
  const pairs: [bells: number, min: number, max: number, units: number][] = [
    [0, 0, 399, 748_881],
    [1, 400, 599, 137_050],
    [0, 600, 799, 57_100],
    [2, 600, 799, 50_000],
    [2, 800, 999, 3_337],
    [0, 1000, 1249, 3_338],
    [0, 1250, 1499, 250],
    [3, 0, 399, 20],
    [0, 1500, 1749, 20],
    [0, 1750, 1999, 3],
    [4, 2000, 2000, 1],
  ];
  const lots: number[] = [];
  pairs.forEach(([, , , units], code) => {
    for (let k = 0; k < units; k++) lots.push(code);
  });
  const order = stream('order');
  const faces = stream('faces');
  const body = new Uint8Array(count * 26);
  for (let i = 0; i < count; i++) {
    const j = i + order.large(1_000_000 - i);
    [lots[i], lots[j]] = [lots[j]!, lots[i]!];
    const [bells, min, max] = pairs[lots[i]!]!;
    const tuples = cursorPoints(min, max);
    const points = tuples[faces.medium(tuples.length)]!;
    const masks = [...Array(16).keys()].filter((m) => [0, 1, 2, 3].filter((w) => (m >> w) & 1).length === bells);
    const mask = masks[faces.small(masks.length)]!;
    let word = lots[i]! << 12;
    for (let w = 0; w < 4; w++) {
      const stop = faces.small(6);
      const symbol = (mask >> w) & 1 ? 0 : 1 + faces.small(5);
      const segments: number[] = [];
      do {
        segments.length = 0;
        for (let s = 0; s < 6; s++) {
          if (s === stop) segments.push((symbol << 4) | points[w]!);
          else {
            const k = faces.small(66);
            segments.push((Math.floor(k / 11) << 4) | (k % 11));
          }
        }
      } while (segments.every((b) => b >> 4 === symbol));
      body.set(segments, i * 26 + 6 * w);
      word |= stop << (3 * w);
    }
    body[i * 26 + 24] = word & 0xff;
    body[i * 26 + 25] = word >> 8;
  }
  return body;
}

describe('docs/block-format.md', () => {
  it('describes the generator exactly: an independent implementation gives the same bytes', () => {
    for (const seedHex of ['00', 'c0ffee', 'ab'.repeat(32)]) {
      const count = 3_000;
      const block = generateBlock({ stakeCents: 300, seedHex, count });
      expect(Buffer.from(block.body).equals(Buffer.from(referenceBody(seedHex, count)))).toBe(true);
    }
  });
});
