import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { toHex, type TicketProof } from '../proofs/index.ts';
import {
  encodeEntry,
  entryBytes,
  headSigningInput,
  inclusionPath,
  logLeafHash,
  logRoot,
  type LoggedTicketProof,
  type TreeHead,
} from '../transparency/index.ts';
import { nodeSha256 } from '../transparency/nodeSha256.ts';

/** Tests only: a log key of their own, as a server's would be. */
export interface TestLogSigner {
  publicKey: string;
  sign(head: TreeHead): string;
}

export function logSigner(): TestLogSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
  const key: KeyObject = privateKey;
  return { publicKey: raw, sign: (head) => sign(null, headSigningInput(head), key).toString('hex') };
}

/**
 * Tests only: a unit's proof with the log part a server adds — its block's commitment as
 * entry 2 of a log of 5, in a head signed a second before `playedAt`.
 */
export function loggedTicket(proof: TicketProof, signer: TestLogSigner, playedAt: Date): LoggedTicketProof {
  const timestamp = playedAt.getTime() - 1000;
  const other = (n: number) =>
    encodeEntry({ kind: 'seed', blockId: n.toString(16).padStart(64, '0'), seed: 'ab'.repeat(n + 1), timestamp });
  const entry = encodeEntry({
    kind: 'commitment',
    blockId: proof.blockId,
    pool: 'real',
    stakeCents: proof.stakeCents,
    count: proof.count,
    root: proof.root,
    seedHash: proof.seedHash,
    timestamp,
  });
  const data = [other(0), other(1), entry, other(3), other(4)];
  const leaves = data.map((d) => logLeafHash(nodeSha256, entryBytes(d)));
  const head = { treeSize: data.length, timestamp, rootHash: toHex(logRoot(nodeSha256, leaves)) };
  return {
    ...proof,
    playedAt: playedAt.toISOString(),
    log: {
      index: 2,
      entry,
      head: { ...head, signature: signer.sign(head) },
      inclusion: inclusionPath(nodeSha256, leaves, 2, data.length).map(toHex),
      publicKey: signer.publicKey,
    },
  };
}
