import { describe, expect, it, vi } from 'vitest';
import type { Play } from '../../contract/api.ts';
import { toHex } from '../../proofs/hex.ts';
import { sha256 as tunedSha256 } from '../../proofs/sha256.ts';
import { stringsFor } from '../i18n/index.ts';
import type { ProofApi } from '../net/proofApi.ts';
import { checkTicket } from './ticketCheck.ts';
import fixture from './ticketCheck.fixture.json';

/**
 * « Vérifier ce ticket » must not hash with the server's tuned SHA-256: here it is broken
 * (every digest off by one bit, by each entry point), and a sound ticket must still verify.
 * The fixture is a ticket of a 70-unit test block with its log part, made by the server's
 * code (src/emission, src/verify/testLog.ts) while the tuned SHA-256 was sound.
 */
vi.mock('../../proofs/sha256.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../proofs/sha256.ts')>();
  return {
    ...actual,
    sha256: (message: Uint8Array) => {
      const digest = actual.sha256(message);
      digest[0]! ^= 1;
      return digest;
    },
    compress: (state: Int32Array, w: Int32Array, scheduled?: boolean) => {
      actual.compress(state, w, scheduled);
      state[0]! ^= 1;
    },
    hashWordsInto: (src: Int32Array, offset: number, words: number, out: Int32Array, outOffset: number) => {
      actual.hashWordsInto(src, offset, words, out, outOffset);
      out[outOffset]! ^= 1;
    },
  };
});

const play = fixture.play as unknown as Play;

function api(root: string): ProofApi {
  return {
    proof: async () => ({ ok: true, data: fixture.proof as never }),
    blocks: async () => ({ ok: true, data: { blocks: [{ id: fixture.proof.blockId, root } as never] } }),
    transparencyKey: async () => ({ ok: true, data: { publicKey: fixture.publicKey } as never }),
    // The history panel's head line asks for it; the ticket check does not.
    transparencyHead: async () => {
      throw new Error('the ticket check does not read the newest head');
    },
  };
}

describe('« Vérifier ce ticket » hashes with a maintained SHA-256', () => {
  it('verifies a sound ticket with the tuned SHA-256 broken, and refutes a wrong root', async () => {
    // The break is real.
    expect(toHex(tunedSha256(new TextEncoder().encode('abc')))).not.toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const t = stringsFor('fr');
    const sound = await checkTicket(api(fixture.root), 'token', play, t);
    expect(sound.kind).toBe('checked');
    if (sound.kind !== 'checked') return;
    expect(sound.verdict.checks.filter((c) => !c.ok)).toEqual([]);
    expect(sound.verdict.ok).toBe(true);

    const otherRoot = fixture.root.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const refuted = await checkTicket(api(otherRoot), 'token', play, t);
    expect(refuted.kind === 'checked' && refuted.verdict.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([
      'published',
    ]);
  });

  it('says a check that cannot reach the server needs the network, and nothing of a charge', async () => {
    const offline = { ok: false as const, kind: 'network' as const, message: 'Failed to fetch' };
    for (const locale of ['fr', 'en'] as const) {
      const t = stringsFor(locale);
      const noProof = await checkTicket({ ...api(fixture.root), proof: async () => offline }, 'token', play, t);
      const noBlocks = await checkTicket({ ...api(fixture.root), blocks: async () => offline }, 'token', play, t);
      for (const outcome of [noProof, noBlocks]) {
        const message = outcome.kind === 'failed' ? outcome.message : `not failed: ${outcome.kind}`;
        expect(message).toBe(t.ticketCheck.offline);
        // A check debits nothing: the purchase's « débité qu’une fois » has no place here.
        expect(message).not.toMatch(/débit|charged/i);
      }
    }
  });
});
