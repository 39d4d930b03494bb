import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { commitBlock, generateBlock, unitProof } from '../emission/index.ts';
import { TICKET_PROOF_FORMAT } from '../proofs/index.ts';
import { main } from './commands.ts';
import { logSigner, loggedTicket } from './testLog.ts';

/**
 * The tuned SHA-256 (src/proofs/sha256.ts) broken on demand: every hash it gives, by any of
 * its entry points, off by one bit. The commitments are built before it breaks; the verifier
 * must give the same verdicts after, since it hashes with node:crypto's.
 */
const tuned = vi.hoisted(() => ({ broken: false }));
vi.mock('../proofs/sha256.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../proofs/sha256.ts')>();
  return {
    ...actual,
    sha256: (message: Uint8Array) => {
      const digest = actual.sha256(message);
      if (tuned.broken) digest[0]! ^= 1;
      return digest;
    },
    compress: (state: Int32Array, w: Int32Array, scheduled?: boolean) => {
      actual.compress(state, w, scheduled);
      if (tuned.broken) state[0]! ^= 1;
    },
    hashWordsInto: (src: Int32Array, offset: number, words: number, out: Int32Array, outOffset: number) => {
      actual.hashWordsInto(src, offset, words, out, outOffset);
      if (tuned.broken) out[outOffset]! ^= 1;
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'spincake-verify-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const block = generateBlock({ stakeCents: 500, seedHex: '5eed5eed', count: 90 });
const commitment = commitBlock(block);
const signer = logSigner();

function proofFile(name: string, position: number, root = commitment.root): string {
  const unit = unitProof(block, commitment, position);
  const proof = loggedTicket(
    {
      format: TICKET_PROOF_FORMAT,
      playId: `play-${position}`,
      blockId: block.id,
      stakeCents: 500,
      count: 90,
      position,
      wheels: block.unitAt(position).wheels,
      lotCents: unit.lotCents,
      salt: unit.salt,
      leaf: unit.leaf,
      path: unit.path,
      root,
      seedHash: commitment.seedHash,
    },
    signer,
    new Date(),
  );
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(proof));
  return file;
}

async function verify(...args: string[]) {
  const lines: string[] = [];
  return { code: await main(args, (line) => lines.push(line)), lines };
}

describe('npm run verify hashes with node:crypto, not the server’s tuned SHA-256', () => {
  const good = [0, 41, 89].map((position) => proofFile(`good-${position}`, position));
  const forged = proofFile(
    'forged',
    41,
    commitBlock(generateBlock({ stakeCents: 500, seedHex: 'f0', count: 90 })).root,
  );
  const verdicts = async () => [
    ...(await Promise.all(good.map((file) => verify('ticket', file, '--root', commitment.root)))),
    await verify('ticket', forged, '--root', commitment.root),
    await verify('block', '--stake', '5', '--seed', '5eed5eed', '--count', '90', '--root', commitment.root),
    await verify('block', '--stake', '5', '--seed', '5eed5eee', '--count', '90', '--root', commitment.root),
  ];

  it('gives the same verdicts with the tuned SHA-256 broken', async () => {
    const sound = await verdicts();
    expect(sound.map((v) => v.code)).toEqual([0, 0, 0, 1, 0, 1]);
    tuned.broken = true;
    try {
      // The break is real: the server's side would build another commitment now.
      expect(commitBlock(block).root).not.toBe(commitment.root);
      expect(commitBlock(block).seedHash).not.toBe(commitment.seedHash);
      expect(await verdicts()).toEqual(sound);
    } finally {
      tuned.broken = false;
    }
  });
});
