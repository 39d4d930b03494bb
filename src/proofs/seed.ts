import type { Sha256 } from './hash.ts';
import { toHex } from './hex.ts';

/**
 * The seed's commitment: the SHA-256 of its bytes, published with the root before the
 * first sale, so that the seed revealed once the block is sold out can be checked
 * (`echo -n SEED | xxd -r -p | sha256sum`). It hides a seed only as well as the seed is
 * unguessable: the server draws 32 random bytes.
 */
export function seedHashHex(seed: Uint8Array, sha256: Sha256): string {
  return toHex(sha256(seed));
}
