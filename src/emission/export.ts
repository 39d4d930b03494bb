import { SEGMENTS_PER_WHEEL, WHEELS_PER_UNIT, stakeEuros } from '../rules/index.ts';
import { BlockFileError, type Block } from './block.ts';
import { PAIRS_BY_CODE, POINT_INDEX_MAX, POINTS_PER_INDEX, SYMBOL_CODES } from './codes.ts';
import { writeAll, writeFileAtomically } from './file.ts';
import { STOPS_OFFSET, UNIT_BYTES } from './record.ts';

/** The header line of /work/shared/spec/audit-export.md, exactly. */
export const CSV_HEADER = 'position,stake_cents,lot_cents,jeu1_cents,jeu2_cents,wheel1,wheel2,wheel3,wheel4';

/** `symbol:points` per segment byte, and the same with the cursor's `*`; undefined for malformed bytes. */
const SEGMENT_TEXT: (string | undefined)[] = Array.from({ length: 256 }, (_, byte) => {
  const symbol = SYMBOL_CODES[byte >> 4];
  const index = byte & 15;
  return symbol !== undefined && index <= POINT_INDEX_MAX ? `${symbol}:${index * POINTS_PER_INDEX}` : undefined;
});

export interface ExportRange {
  from: number;
  count: number;
}

/** Checks a range of positions against the block; throws RangeError with a one-line message. */
export function exportRange(block: Block, from = 0, count?: number): ExportRange {
  const total = block.header.count;
  if (!Number.isSafeInteger(from) || from < 0 || from >= total) {
    throw new RangeError(`bad range: --from must be an integer in 0–${total - 1}, got ${from}`);
  }
  const n = count ?? total - from;
  if (!Number.isSafeInteger(n) || n < 1 || from + n > total) {
    throw new RangeError(`bad range: --count must be an integer in 1–${total - from} from position ${from}, got ${n}`);
  }
  return { from, count: n };
}

const LINES_PER_CHUNK = 4_096;
// Module-local copies: imported bindings can compile to getters, too slow for the hot loop.
const RECORD = UNIT_BYTES;
const STOPS = STOPS_OFFSET;
const WHEELS = WHEELS_PER_UNIT;
const SEGMENTS = SEGMENTS_PER_WHEEL;

/** The CSV lines of units [from, to), each ending in `\n`. Throws if a unit is malformed. */
export function csvLines(block: Block, from: number, to: number): string {
  const body = block.body;
  const stake = block.header.stakeCents;
  const euros = stakeEuros(stake);
  let out = '';
  for (let i = from; i < to; i++) {
    const offset = i * RECORD;
    const word = body[offset + STOPS]! | (body[offset + STOPS + 1]! << 8);
    const pair = PAIRS_BY_CODE[word >> 12];
    if (!pair) throw new BlockFileError(`unit ${i} declares an unknown pair: run the audit`);
    let line = `${i},${stake},${pair.lotPerEuroCents * euros},${pair.jeu1PerEuroCents * euros},${pair.jeu2PerEuroCents * euros}`;
    for (let w = 0; w < WHEELS; w++) {
      const stop = (word >> (3 * w)) & 7;
      for (let s = 0; s < SEGMENTS; s++) {
        const text = SEGMENT_TEXT[body[offset + w * SEGMENTS + s]!];
        if (text === undefined || stop >= SEGMENTS) throw new BlockFileError(`unit ${i} is malformed: run the audit`);
        line += (s === 0 ? ',' : '|') + (s === stop ? '*' : '') + text;
      }
    }
    out += line + '\n';
  }
  return out;
}

/**
 * Writes units [from, from + count) as the audit CSV to `path`, atomically and in
 * chunks, so a full block (about 250 MB of text) never sits in memory at once.
 */
export function exportCsv(block: Block, path: string, range: ExportRange): void {
  writeFileAtomically(path, (fd) => {
    writeAll(fd, Buffer.from(CSV_HEADER + '\n'));
    const end = range.from + range.count;
    for (let i = range.from; i < end; i += LINES_PER_CHUNK) {
      writeAll(fd, Buffer.from(csvLines(block, i, Math.min(end, i + LINES_PER_CHUNK))));
    }
  });
}
