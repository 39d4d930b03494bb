import { fromHex } from '../proofs/hex.ts';

/**
 * A signed tree head: the log's size, its root and the time it was signed, with an
 * Ed25519 signature over one line of text (docs/fairness.md, "The log"):
 *
 *   spincake-tree-head/1 TREE_SIZE TIMESTAMP ROOT_HASH
 *
 * TIMESTAMP in Unix milliseconds, ROOT_HASH lowercase hex. The signature (64 bytes) and
 * the public key (32 bytes, RFC 8032's encoding) travel as lowercase hex. Signatures are
 * checked with WebCrypto, which Node 24 and current browsers both carry.
 */
export const TREE_HEAD_FORMAT = 'spincake-tree-head/1';

export interface TreeHead {
  treeSize: number;
  timestamp: number;
  rootHash: string;
}

export interface SignedTreeHead extends TreeHead {
  signature: string;
}

/** The bytes the log signs for a head. */
export function headSigningInput(head: TreeHead): Uint8Array {
  return new TextEncoder().encode(`${TREE_HEAD_FORMAT} ${head.treeSize} ${head.timestamp} ${head.rootHash}`);
}

export function isSignedTreeHead(value: unknown): value is SignedTreeHead {
  const head = value as Partial<SignedTreeHead> | null;
  return (
    typeof head === 'object' &&
    head !== null &&
    Number.isSafeInteger(head.treeSize) &&
    head.treeSize! >= 0 &&
    Number.isSafeInteger(head.timestamp) &&
    head.timestamp! >= 0 &&
    typeof head.rootHash === 'string' &&
    /^[0-9a-f]{64}$/.test(head.rootHash) &&
    typeof head.signature === 'string' &&
    /^[0-9a-f]{128}$/.test(head.signature)
  );
}

/** Whether `head`'s signature is the key's (32-byte Ed25519 public key, hex). */
export async function verifyHeadSignature(head: SignedTreeHead, publicKeyHex: string): Promise<boolean> {
  const key = fromHex(publicKeyHex);
  const signature = fromHex(head.signature);
  if (!key || key.length !== 32 || !signature || signature.length !== 64) return false;
  try {
    // Copied into views of plain ArrayBuffers, the only kind WebCrypto's types take.
    const imported = await globalThis.crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'Ed25519' }, false, [
      'verify',
    ]);
    return await globalThis.crypto.subtle.verify(
      { name: 'Ed25519' },
      imported,
      new Uint8Array(signature),
      new Uint8Array(headSigningInput(head)),
    );
  } catch {
    return false;
  }
}
