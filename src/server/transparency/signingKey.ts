import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { headSigningInput, type SignedTreeHead, type TreeHead } from '../../transparency/index.ts';
import type { TransparencySettings } from '../config.ts';

/** Where a server without a configured key keeps the one it makes (docs/fairness.md). */
export const DEFAULT_KEY_FILE = 'transparency-key.pem';

// PKCS#8's DER for an Ed25519 key is this prefix and the key's 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export class SigningKeyError extends Error {}

/** The log's Ed25519 key: signs heads with node:crypto; its public half is published. */
export class LogSigningKey {
  /** The public key, 32 bytes in hex (RFC 8032's encoding). */
  readonly publicKey: string;

  private constructor(private readonly key: KeyObject) {
    const jwk = createPublicKey(key).export({ format: 'jwk' });
    this.publicKey = Buffer.from(jwk.x!, 'base64url').toString('hex');
  }

  /** A key from PKCS#8 PEM text or a 32-byte seed in hex. */
  static fromText(text: string, origin: string): LogSigningKey {
    const trimmed = text.trim();
    let key: KeyObject;
    try {
      key = /^[0-9a-fA-F]{64}$/.test(trimmed)
        ? createPrivateKey({
            key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(trimmed, 'hex')]),
            format: 'der',
            type: 'pkcs8',
          })
        : createPrivateKey(trimmed);
    } catch (error) {
      throw new SigningKeyError(`${origin} is not a private key: ${(error as Error).message}`);
    }
    if (key.asymmetricKeyType !== 'ed25519') {
      throw new SigningKeyError(`${origin} is a ${key.asymmetricKeyType} key; the log signs with Ed25519`);
    }
    return new LogSigningKey(key);
  }

  /**
   * The configured key: TRANSPARENCY_KEY, else TRANSPARENCY_KEY_FILE, else the key file in
   * the data directory, made on the first start (0600). Instances that share DATA_DIR start
   * together safely: the file appears whole or not at all, and the first one made wins.
   */
  static load(settings: TransparencySettings, dataDir: string): LogSigningKey {
    if (settings.key !== null) return LogSigningKey.fromText(settings.key, 'TRANSPARENCY_KEY');
    if (settings.keyFile !== null) return LogSigningKey.fromText(readKeyFile(settings.keyFile), settings.keyFile);
    const file = path.join(dataDir, DEFAULT_KEY_FILE);
    if (!fs.existsSync(file)) createKeyFile(file);
    return LogSigningKey.fromText(readKeyFile(file), file);
  }

  sign(head: TreeHead): SignedTreeHead {
    return { ...head, signature: sign(null, headSigningInput(head), this.key).toString('hex') };
  }
}

function readKeyFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new SigningKeyError(`cannot read the log's key ${file}: ${(error as Error).message}`);
  }
}

/** A new key written to a temporary file (0600, fsynced), then linked into place: never half a file. */
function createKeyFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const seed = randomBytes(32);
  const pem = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  }).export({ format: 'pem', type: 'pkcs8' }) as string;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, pem);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    // Another instance made it first: its key is the log's.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}
