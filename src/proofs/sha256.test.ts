import { describe, expect, it } from 'vitest';
import { toHex } from './hex.ts';
import { hashWordsInto, sha256, wordsToBytes } from './sha256.ts';

const text = (s: string) => new TextEncoder().encode(s);

describe('sha256', () => {
  it('gives the FIPS 180-4 test vectors', () => {
    expect(toHex(sha256(text('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(sha256(text('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(toHex(sha256(text('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(toHex(sha256(text('a'.repeat(1000))))).toBe(
      '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3',
    );
  });

  it('hashes 2, 3 and 4 child hashes as SHA-256 of their bytes', () => {
    for (const hashes of [2, 3, 4]) {
      const words = Int32Array.from({ length: hashes * 8 }, (_, i) => (i * 0x9e3779b9) | 0);
      const bytes = new Uint8Array(hashes * 32);
      for (let h = 0; h < hashes; h++) wordsToBytes(words, h * 8, bytes, h * 32);
      const out = new Int32Array(8);
      hashWordsInto(words, 0, hashes * 8, out, 0);
      const digest = new Uint8Array(32);
      wordsToBytes(out, 0, digest, 0);
      expect(toHex(digest)).toBe(toHex(sha256(bytes)));
    }
  });
});
