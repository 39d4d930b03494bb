import { hash } from 'node:crypto';

/**
 * node:crypto's SHA-256, for the server's log and every check of `npm run verify`. The one
 * file of this room that needs Node (the browser passes @noble/hashes' instead). The
 * one-shot `hash()`: a verifier hashes a block's million leaves one by one.
 */
export const nodeSha256 = (data: Uint8Array): Uint8Array => new Uint8Array(hash('sha256', data, 'buffer'));
