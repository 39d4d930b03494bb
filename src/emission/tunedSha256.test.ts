import { createHash, randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toHex } from '../proofs/hex.ts';
import { LEAF_PREIMAGE_BYTES, SALT_BYTES, writeLeafPreimage } from '../proofs/leaf.ts';
import { hashWordsInto, sha256, wordsToBytes } from '../proofs/sha256.ts';
import { hashLeafInto } from '../proofs/tunedLeaf.ts';

/**
 * The tuned SHA-256 builds every block's commitment; the checkers hash with node:crypto's
 * or @noble/hashes'. Held here to node:crypto's on random messages of every length the
 * padding treats apart: each side of the one-block limit (55, 56), of each block end.
 */
const nodeHex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const wordsHex = (words: Int32Array) => {
  const bytes = new Uint8Array(32);
  wordsToBytes(words, 0, bytes, 0);
  return toHex(bytes);
};

describe('the tuned SHA-256 against node:crypto', () => {
  it('hashes random messages of every length up to 300 bytes and around every block boundary to 4 KiB', () => {
    const lengths = new Set<number>();
    for (let length = 0; length <= 300; length++) lengths.add(length);
    for (let end = 64; end <= 4096; end += 64) for (const d of [-9, -8, -1, 0, 1]) lengths.add(end + d);
    for (const length of lengths) {
      for (let round = 0; round < 4; round++) {
        const message = randomBytes(length);
        expect(toHex(sha256(message)), `${length} bytes: ${message.toString('hex')}`).toBe(nodeHex(message));
      }
    }
    for (let round = 0; round < 20; round++) {
      const message = randomBytes(randomInt(4096, 70_000));
      expect(toHex(sha256(message)), `${message.length} bytes`).toBe(nodeHex(message));
    }
  });

  it('hashes 2, 3 and 4 random child hashes as words (a tree node) as node:crypto hashes their bytes', () => {
    for (let round = 0; round < 500; round++) {
      const hashes = 1 + (round % 8);
      const bytes = randomBytes(32 * hashes);
      const words = new Int32Array(8 * hashes);
      for (let i = 0; i < words.length; i++) words[i] = bytes.readInt32BE(4 * i);
      const out = new Int32Array(8);
      hashWordsInto(words, 0, words.length, out, 0);
      expect(wordsHex(out), bytes.toString('hex')).toBe(nodeHex(bytes));
    }
  });

  it('hashes a random leaf built as words as node:crypto hashes its 53-byte preimage', () => {
    for (let round = 0; round < 2000; round++) {
      const faces = randomBytes(24 + 8);
      const salts = randomBytes(SALT_BYTES * 3);
      const [position, stakeCents, stops, lotCents] = [
        randomInt(0, 2 ** 32 - 1),
        randomInt(0, 2 ** 16),
        randomInt(0, 2 ** 16),
        randomInt(0, 2 ** 32 - 1),
      ] as const;
      const at = { faces: randomInt(0, 9), salt: randomInt(0, 2 * SALT_BYTES + 1) };
      const preimage = new Uint8Array(LEAF_PREIMAGE_BYTES);
      writeLeafPreimage(preimage, position, stakeCents, faces, at.faces, stops, lotCents, salts, at.salt);
      const out = new Int32Array(8);
      hashLeafInto(out, 0, position, stakeCents, faces, at.faces, stops, lotCents, salts, at.salt);
      expect(wordsHex(out), toHex(preimage)).toBe(nodeHex(preimage));
    }
  });
});
