import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../proofs/hex.ts';
import { sha256 as browserSha256 } from '@noble/hashes/sha2.js';
import { consistencyProof, inclusionPath, logLeafHash, logRoot, verifyConsistency, verifyInclusion } from './merkle.ts';
import { nodeSha256 as sha256 } from './nodeSha256.ts';

// The test vectors of RFC 6962's reference code (certificate-transparency, merkle_tree_test):
// RFC 9162 keeps the same tree and hashing.
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'];
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const leafHashes = LEAVES.map((hex) => logLeafHash(sha256, fromHex(hex)!));

function flip(hash: Uint8Array): Uint8Array {
  const out = Uint8Array.from(hash);
  out[7]! ^= 1;
  return out;
}

describe('the log tree (RFC 9162)', () => {
  it('gives the reference roots, the empty tree’s, and the same with the browser’s SHA-256', () => {
    ROOTS.forEach((root, i) => expect(toHex(logRoot(sha256, leafHashes, i + 1))).toBe(root));
    expect(toHex(logRoot(sha256, []))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    const browser = LEAVES.map((hex) => logLeafHash(browserSha256, fromHex(hex)!));
    expect(toHex(logRoot(browserSha256, browser))).toBe(ROOTS[7]);
  });

  it('gives the reference inclusion and consistency proofs', () => {
    const expected = [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ];
    expect(inclusionPath(sha256, leafHashes, 0, 8).map(toHex)).toEqual(expected);
    expect(consistencyProof(sha256, leafHashes, 1, 8).map(toHex)).toEqual(expected);
  });

  it('verifies every inclusion and consistency proof it makes, and refuses any change to one', () => {
    const many = Array.from({ length: 70 }, (_, i) => logLeafHash(sha256, Uint8Array.of(i, i >> 8)));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.nat(), fc.nat(), (size, a, b) => {
        const index = a % size;
        const root = logRoot(sha256, many, size);
        const path = inclusionPath(sha256, many, index, size);
        expect(verifyInclusion(sha256, many[index]!, index, size, path, root)).toBe(true);
        expect(verifyInclusion(sha256, flip(many[index]!), index, size, path, root)).toBe(false);
        if (size > 1) {
          expect(verifyInclusion(sha256, many[index]!, (index + 1) % size, size, path, root)).toBe(false);
          expect(verifyInclusion(sha256, many[index]!, index, size, path.slice(1), root)).toBe(false);
          expect(verifyInclusion(sha256, many[index]!, index, size, [flip(path[0]!), ...path.slice(1)], root)).toBe(
            false,
          );
        }
        // Kept subtrees give the same tree (the cache spans part of the leaves, as a log's does).
        const cache = { hashes: new Map<number, Uint8Array>(), upTo: Math.max(0, size - (a % 3)) };
        for (let round = 0; round < 2; round++) {
          expect(toHex(logRoot(sha256, many, size, cache))).toBe(toHex(root));
          expect(inclusionPath(sha256, many, index, size, cache).map(toHex)).toEqual(path.map(toHex));
        }
        const first = 1 + (b % size);
        const firstRoot = logRoot(sha256, many, first);
        const proof = consistencyProof(sha256, many, first, size);
        expect(consistencyProof(sha256, many, first, size, cache).map(toHex)).toEqual(proof.map(toHex));
        expect(verifyConsistency(sha256, first, size, firstRoot, root, proof)).toBe(true);
        expect(verifyConsistency(sha256, first, size, flip(firstRoot), root, proof)).toBe(false);
        expect(verifyConsistency(sha256, first, size, firstRoot, flip(root), proof)).toBe(false);
        if (proof.length > 0) {
          expect(verifyConsistency(sha256, first, size, firstRoot, root, [flip(proof[0]!), ...proof.slice(1)])).toBe(
            false,
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a consistency proof between trees that are not prefixes of one another', () => {
    const a = Array.from({ length: 9 }, (_, i) => logLeafHash(sha256, Uint8Array.of(i)));
    const b = [...a.slice(0, 4), logLeafHash(sha256, Uint8Array.of(99)), ...a.slice(5)];
    // b rewrites entry 4: its tree of 9 is not an extension of a's tree of 5.
    const proof = consistencyProof(sha256, b, 5, 9);
    expect(verifyConsistency(sha256, 5, 9, logRoot(sha256, a, 5), logRoot(sha256, b, 9), proof)).toBe(false);
    expect(verifyConsistency(sha256, 5, 9, logRoot(sha256, b, 5), logRoot(sha256, b, 9), proof)).toBe(true);
  });
});
