import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unitProblems, evaluate } from '../rules/index.ts';
import {
  BLOCK_FORMAT_VERSION,
  BlockFileError,
  auditBlock,
  decodeBlock,
  generateBlock,
  readBlockFile,
  writeBlockFile,
  UNIT_BYTES,
} from './index.ts';
import { HEADER_BYTES, assembleBlock } from './block.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'spincake-block-'));

describe('block files', () => {
  const block = generateBlock({ stakeCents: 200, seedHex: '00ff10', count: 2_000 });

  it('records the header and identifies the block by the SHA-256 of its body', () => {
    expect(block.header).toMatchObject({
      formatVersion: BLOCK_FORMAT_VERSION,
      stakeCents: 200,
      count: 2_000,
      seedHex: '00ff10',
    });
    expect(block.id).toBe(block.header.bodySha256Hex);
    expect(block.id).toMatch(/^[0-9a-f]{64}$/);
    expect(block.body.length).toBe(2_000 * UNIT_BYTES);
    expect(UNIT_BYTES).toBeLessThanOrEqual(32);
  });

  it('decodes units that src/rules accepts, whose lot is what the cursors show', () => {
    for (let p = 0; p < block.header.count; p++) {
      const unit = block.unitAt(p);
      expect(unitProblems(unit)).toEqual([]);
      expect(block.lotCentsAt(p)).toBe(evaluate(unit).winCents);
    }
    expect(() => block.unitAt(2_000)).toThrow(RangeError);
    expect(() => block.lotCentsAt(-1)).toThrow(RangeError);
  });

  it('round-trips through a file written atomically', async () => {
    const dir = tempDir();
    const path = join(dir, 'b.spincake');
    await writeBlockFile(path, block);
    expect(readdirSync(dir)).toEqual(['b.spincake']);
    const back = readBlockFile(path);
    expect(back.header).toEqual(block.header);
    expect(Buffer.from(back.fileBytes()).equals(Buffer.from(block.fileBytes()))).toBe(true);
    expect(back.unitAt(1_234)).toEqual(block.unitAt(1_234));
  });

  it('refuses an unwritable path without leaving anything behind', async () => {
    const dir = tempDir();
    await expect(writeBlockFile(join(dir, 'missing', 'b.spincake'), block)).rejects.toThrow(BlockFileError);
    writeFileSync(join(dir, 'file'), 'x');
    await expect(writeBlockFile(join(dir, 'file', 'b.spincake'), block)).rejects.toThrow(/cannot write/);
    expect(readdirSync(dir)).toEqual(['file']);
  });

  it('refuses foreign, truncated, corrupted and unknown-version files with one-line errors', () => {
    const bytes = Buffer.from(block.fileBytes());
    const expectError = (b: Uint8Array, pattern: RegExp) => {
      let caught: unknown;
      try {
        decodeBlock(b);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(BlockFileError);
      expect((caught as Error).message).toMatch(pattern);
      expect((caught as Error).message).not.toContain('\n');
    };
    expectError(Buffer.from('PK\x03\x04 this is a zip file'), /not a SPINCAKE block file/);
    expectError(new Uint8Array(0), /not a SPINCAKE block file/);
    expectError(bytes.subarray(0, 50), /^truncated/);
    expectError(bytes.subarray(0, bytes.length - 1), /^truncated/);
    expectError(Buffer.concat([bytes, Buffer.from([0])]), /unexpected bytes/);
    const flipped = Buffer.from(bytes);
    flipped[HEADER_BYTES + 777]! ^= 0x01;
    expectError(flipped, /^checksum mismatch/);
    const stake = Buffer.from(bytes);
    stake[14] = 100; // 200 → 100 cents: the header check catches it
    expectError(stake, /checksum mismatch in the header/);
    const version = Buffer.from(bytes);
    version[8] = 9;
    expectError(version, /unsupported block format version 9/);
    expect(() => readBlockFile('/nonexistent/dir/b.spincake')).toThrow(/cannot read .*: no such file/);
  });

  it('lets the audit catch a unit whose wheels differ from its declared lot, even with a fixed-up checksum', () => {
    const body = Uint8Array.from(block.body);
    // Find a losing unit and put a bell under its first cursor: one bell with < 400 points.
    let position = -1;
    for (let p = 0; p < block.header.count && position < 0; p++) if (block.lotCentsAt(p) === 0) position = p;
    const offset = position * UNIT_BYTES;
    const stop = body[offset + 24]! & 7;
    body[offset + stop] = (0 << 4) | (body[offset + stop]! & 15);
    const tampered = assembleBlock(200, Buffer.from('00ff10', 'hex'), body);
    const report = auditBlock(tampered);
    expect(report.ok).toBe(false);
    expect(report.problems[0]!.position).toBe(position);
    expect(decodeBlock(tampered.fileBytes()).id).toBe(tampered.id); // checksum is consistent: only the audit sees it
  });

  it('is byte-identical for the same seed, and a prefix of the full block for a smaller count', () => {
    const again = generateBlock({ stakeCents: 200, seedHex: '00ff10', count: 2_000 });
    expect(Buffer.from(again.fileBytes()).equals(Buffer.from(block.fileBytes()))).toBe(true);
    const shorter = generateBlock({ stakeCents: 200, seedHex: '00ff10', count: 500 });
    expect(Buffer.from(shorter.body).equals(Buffer.from(block.body.subarray(0, 500 * UNIT_BYTES)))).toBe(true);
    const other = generateBlock({ stakeCents: 200, seedHex: '00ff11', count: 2_000 });
    expect(Buffer.from(other.body).equals(Buffer.from(block.body))).toBe(false);
    const fresh = generateBlock({ stakeCents: 200, count: 10 });
    expect(fresh.header.seedHex).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses bad options with a clear message', () => {
    expect(() => generateBlock({ stakeCents: 400 as 100, count: 10 })).toThrow(/unknown stake 400/);
    expect(() => generateBlock({ stakeCents: 100, seedHex: 'xyz', count: 10 })).toThrow(/bad seed/);
    expect(() => generateBlock({ stakeCents: 100, seedHex: 'abc', count: 10 })).toThrow(/bad seed/);
    expect(() => generateBlock({ stakeCents: 100, seedHex: 'ab'.repeat(33), count: 10 })).toThrow(/bad seed/);
    expect(() => generateBlock({ stakeCents: 100, count: 0 })).toThrow(/count/);
    expect(() => generateBlock({ stakeCents: 100, count: 1_000_001 })).toThrow(/count/);
  });

  it('lists the first 100 bad units and every block-level problem, and counts them all', () => {
    const body = Uint8Array.from(block.body);
    for (let p = 0; p < 300; p++) body[p * UNIT_BYTES + 25] = 0xf0; // pair code 15: unknown
    const tampered = assembleBlock(200, Buffer.from('00ff10', 'hex'), body);
    tampered.body[0]! ^= 1; // and the body no longer matches its checksum (a block changed in memory)
    const report = auditBlock(tampered);
    expect(report.problemCount).toBe(301);
    expect(report.problems).toHaveLength(101);
    expect(report.problems[0]).toEqual({
      position: 0,
      message: expect.stringMatching(/unknown pair code 15|malformed|identical/),
    });
    expect(report.problems[99]!.position).toBe(99);
    expect(report.problems[100]).toEqual({ position: -1, message: expect.stringMatching(/^checksum mismatch/) });
  });

  it('reports progress up to the count', () => {
    const seen: [number, number][] = [];
    generateBlock({
      stakeCents: 100,
      seedHex: '01',
      count: 70_000,
      onProgress: (done, total) => seen.push([done, total]),
    });
    expect(seen).toEqual([
      [65_536, 70_000],
      [70_000, 70_000],
    ]);
  });
});
