import { createHash } from 'node:crypto';
import { mulberry32 } from '../common/seededRandom.ts';

/**
 * A deterministic random() in [0, 1) seeded by a string, for test fixtures: the project's
 * one generator (mulberry32) seeded with the first 4 bytes (little-endian) of the string's
 * SHA-256, so that a fixture's unit is the same on every run.
 */
export function seededRandom(seed: string): () => number {
  return mulberry32(createHash('sha256').update(seed).digest().readUInt32LE(0));
}
