/**
 * A SHA-256 function: bytes in, its 32-byte digest out. The checkers of a ticket or a
 * block take it as a parameter and are given a maintained one (node:crypto's in
 * `npm run verify`, @noble/hashes' in the browser), so that they share no hashing code
 * with the server's tuned SHA-256 (sha256.ts), which builds the commitments they check.
 */
export type Sha256 = (data: Uint8Array) => Uint8Array;
