import { createHash } from 'node:crypto';

/**
 * The log's SHA-256 on the server and the command line: node:crypto's. The one file of
 * this room that needs Node (the browser passes src/proofs' SHA-256 instead).
 */
export const nodeSha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());
