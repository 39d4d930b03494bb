import { createHash } from 'node:crypto';
import { BLOCK_SIZE, isStakeCents, type StakeCents, type Unit } from '../rules/index.ts';
import { MAX_SEED_BYTES } from './random.ts';
import { UNIT_BYTES, cursorOutcomeIndex, decodeUnit, outcomeTables } from './record.ts';

/**
 * The block file (docs/block-format.md): a 96-byte header, then `count` records of
 * UNIT_BYTES in sale order. All integers little-endian.
 *
 *   0  8  magic "SPINCAKE"
 *   8  2  format version
 *  10  2  header size (96)
 *  12  2  bytes per unit (26)
 *  14  2  stake, cents
 *  16  4  count of units
 *  20  1  seed length in bytes (1–32)
 *  21  3  zero
 *  24 32  seed, zero-padded
 *  56 32  SHA-256 of the body
 *  88  8  first 8 bytes of SHA-256 of header bytes 0–87 (header check)
 */
export const BLOCK_FORMAT_VERSION = 1;
export const BLOCK_MAGIC = 'SPINCAKE';
export const HEADER_BYTES = 96;
const HEADER_CHECKED_BYTES = 88;
const HEADER_CHECK_BYTES = 8;

export interface BlockHeader {
  formatVersion: number;
  stakeCents: StakeCents;
  count: number;
  seedHex: string;
  bodySha256Hex: string;
}

export interface Block {
  header: BlockHeader;
  /** Block identity = SHA-256 of the body, hex. */
  id: string;
  /** The encoded records, `count × UNIT_BYTES` bytes (a view; do not modify). */
  body: Uint8Array;
  /** Decodes one unit. Throws RangeError outside 0 ≤ position < count. */
  unitAt(position: number): Unit;
  /** The lot the unit's cursors show (JEU 1 + JEU 2), cents, computed with src/rules' tables. */
  lotCentsAt(position: number): number;
  /** The whole file image: header then body. */
  fileBytes(): Uint8Array;
}

/** A block file that cannot be used. The message is one line, for people. */
export class BlockFileError extends Error {
  override name = 'BlockFileError';
}

function sha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest();
}

class EncodedBlock implements Block {
  readonly body: Uint8Array;
  readonly id: string;
  constructor(
    readonly header: BlockHeader,
    private readonly file: Uint8Array,
  ) {
    this.body = file.subarray(HEADER_BYTES, HEADER_BYTES + header.count * UNIT_BYTES);
    this.id = header.bodySha256Hex;
  }

  private offsetOf(position: number): number {
    if (!Number.isInteger(position) || position < 0 || position >= this.header.count) {
      throw new RangeError(`position ${position} is outside the block (0–${this.header.count - 1})`);
    }
    return position * UNIT_BYTES;
  }

  unitAt(position: number): Unit {
    return decodeUnit(this.body, this.offsetOf(position), this.header.stakeCents);
  }

  lotCentsAt(position: number): number {
    const index = cursorOutcomeIndex(this.body, this.offsetOf(position));
    if (index < 0) throw new RangeError(`unit ${position} is malformed`);
    return outcomeTables(this.header.stakeCents).lotCents[index]!;
  }

  fileBytes(): Uint8Array {
    return this.file;
  }
}

/** Builds a block around an encoded body: computes the checksum and the header. */
export function assembleBlock(stakeCents: StakeCents, seed: Uint8Array, body: Uint8Array): Block {
  if (body.length % UNIT_BYTES !== 0) throw new RangeError('body is not a whole number of units');
  const count = body.length / UNIT_BYTES;
  if (seed.length < 1 || seed.length > MAX_SEED_BYTES) throw new RangeError('seed must be 1–32 bytes');
  const file = new Uint8Array(HEADER_BYTES + body.length);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  file.set(Buffer.from(BLOCK_MAGIC, 'ascii'), 0);
  view.setUint16(8, BLOCK_FORMAT_VERSION, true);
  view.setUint16(10, HEADER_BYTES, true);
  view.setUint16(12, UNIT_BYTES, true);
  view.setUint16(14, stakeCents, true);
  view.setUint32(16, count, true);
  file[20] = seed.length;
  file.set(seed, 24);
  const bodySha = sha256(body);
  file.set(bodySha, 56);
  file.set(sha256(file.subarray(0, HEADER_CHECKED_BYTES)).subarray(0, HEADER_CHECK_BYTES), HEADER_CHECKED_BYTES);
  file.set(body, HEADER_BYTES);
  const header: BlockHeader = {
    formatVersion: BLOCK_FORMAT_VERSION,
    stakeCents,
    count,
    seedHex: Buffer.from(seed).toString('hex'),
    bodySha256Hex: bodySha.toString('hex'),
  };
  return new EncodedBlock(header, file);
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * Reads a block from its file image, checking magic, version, sizes and both checksums.
 * Keeps a view on `bytes` (no copy). Throws BlockFileError with a one-line message.
 */
export function decodeBlock(bytes: Uint8Array): Block {
  const magic = Buffer.from(BLOCK_MAGIC, 'ascii');
  if (bytes.length < magic.length || !magic.equals(bytes.subarray(0, magic.length))) {
    throw new BlockFileError('not a SPINCAKE block file (bad magic bytes)');
  }
  if (bytes.length < HEADER_BYTES) {
    throw new BlockFileError(`truncated: the header needs ${HEADER_BYTES} bytes, the file has ${bytes.length}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(8, true);
  if (version !== BLOCK_FORMAT_VERSION) {
    throw new BlockFileError(
      `unsupported block format version ${version} (this program reads version ${BLOCK_FORMAT_VERSION})`,
    );
  }
  const headerCheck = sha256(bytes.subarray(0, HEADER_CHECKED_BYTES)).subarray(0, HEADER_CHECK_BYTES);
  if (!headerCheck.equals(bytes.subarray(HEADER_CHECKED_BYTES, HEADER_BYTES))) {
    throw new BlockFileError('checksum mismatch in the header: the file is corrupted');
  }
  const headerSize = view.getUint16(10, true);
  const unitBytes = view.getUint16(12, true);
  if (headerSize !== HEADER_BYTES || unitBytes !== UNIT_BYTES) {
    throw new BlockFileError(`malformed header: header size ${headerSize}, unit size ${unitBytes}`);
  }
  const stakeCents = view.getUint16(14, true);
  if (!isStakeCents(stakeCents)) throw new BlockFileError(`malformed header: unknown stake ${stakeCents} cents`);
  const count = view.getUint32(16, true);
  if (count < 1 || count > BLOCK_SIZE)
    throw new BlockFileError(`malformed header: count ${count} is not in 1–${BLOCK_SIZE}`);
  const seedLength = bytes[20]!;
  if (seedLength < 1 || seedLength > MAX_SEED_BYTES)
    throw new BlockFileError(`malformed header: seed length ${seedLength}`);
  const expected = HEADER_BYTES + count * UNIT_BYTES;
  if (bytes.length < expected) {
    throw new BlockFileError(`truncated: ${count} units need ${expected} bytes, the file has ${bytes.length}`);
  }
  if (bytes.length > expected) {
    throw new BlockFileError(`${bytes.length - expected} unexpected bytes after the last unit: the file is corrupted`);
  }
  const declared = hex(bytes.subarray(56, 88));
  const actual = hex(sha256(bytes.subarray(HEADER_BYTES, expected)));
  if (declared !== actual) {
    throw new BlockFileError(`checksum mismatch: the body's SHA-256 is ${actual}, the header says ${declared}`);
  }
  const header: BlockHeader = {
    formatVersion: version,
    stakeCents,
    count,
    seedHex: hex(bytes.subarray(24, 24 + seedLength)),
    bodySha256Hex: declared,
  };
  return new EncodedBlock(header, bytes);
}

/** Recomputes the body's SHA-256 (the audit does not trust a block held in memory). */
export function bodySha256Hex(block: Block): string {
  return hex(sha256(block.body));
}
