import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type ServerConfig } from '../config.ts';

/**
 * The keys that sign session tokens, kept out of the database: a copy of the data (a
 * backup, a dump) mints no session. They come from SESSION_KEYS (`id:base64key,…`) or
 * SESSION_KEYS_FILE (the same, one or more per line). The first key signs; every listed
 * key verifies, so a new key is put first and the old one kept until the last token it
 * signed has expired (SESSION_TTL_SECONDS): rotation logs nobody out. The demo profile,
 * given neither, makes a key file of its own in DATA_DIR (0600).
 */

export interface SessionKey {
  id: string;
  key: Buffer;
  /** The key as written (base64), for the strength check of the production profile. */
  text: string;
}

export interface SessionKeyring {
  /** The key that signs. */
  signing: SessionKey;
  /** Every key, by id: any of them verifies. */
  byId: ReadonlyMap<string, SessionKey>;
  /** Where the keys came from: an environment variable or a file. */
  source: { kind: 'env' } | { kind: 'file'; path: string; generated: boolean };
}

export const SESSION_KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** HMAC-SHA256 keys of at least its block's half: 32 bytes. */
export const MIN_SESSION_KEY_BYTES = 32;
/** The file the demo profile makes when no key is configured. */
export const GENERATED_KEYS_FILE = 'session-keys';

export function parseSessionKeys(text: string, where: string): SessionKey[] {
  const entries = text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && !s.startsWith('#'));
  if (entries.length === 0) throw new ConfigError(`${where}: no key (expected id:base64key,…)`);
  const keys: SessionKey[] = [];
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const id = entry.slice(0, colon);
    const text = entry.slice(colon + 1);
    if (colon <= 0 || !SESSION_KEY_ID.test(id)) {
      throw new ConfigError(`${where}: each key is id:base64key, its id 1–32 of A–Z a–z 0–9 _ -`);
    }
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw new ConfigError(`${where}: key "${id}" is not base64`);
    const key = Buffer.from(text, 'base64');
    if (key.length < MIN_SESSION_KEY_BYTES) {
      throw new ConfigError(`${where}: key "${id}" has ${key.length} bytes; at least ${MIN_SESSION_KEY_BYTES}`);
    }
    if (keys.some((k) => k.id === id)) throw new ConfigError(`${where}: key id "${id}" is listed twice`);
    keys.push({ id, key, text });
  }
  return keys;
}

function ring(keys: SessionKey[], source: SessionKeyring['source']): SessionKeyring {
  return { signing: keys[0]!, byId: new Map(keys.map((k) => [k.id, k])), source };
}

/** A fresh key line: `id:base64key`, the id naming the day it was made. */
export function newSessionKeyLine(now = new Date()): string {
  return `k${now.toISOString().slice(0, 10).replaceAll('-', '')}:${randomBytes(32).toString('base64')}`;
}

/** Reads the configured keys; in the demo profile without any, makes (or reads) DATA_DIR/session-keys. */
export function loadSessionKeyring(config: Pick<ServerConfig, 'sessionKeys' | 'profile' | 'dataDir'>): SessionKeyring {
  const { inline, file } = config.sessionKeys;
  if (inline !== null) return ring(parseSessionKeys(inline, 'SESSION_KEYS'), { kind: 'env' });
  if (file !== null) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`SESSION_KEYS_FILE: cannot read ${file}: ${(error as Error).message}`);
    }
    return ring(parseSessionKeys(text, `SESSION_KEYS_FILE ${file}`), { kind: 'file', path: file, generated: false });
  }
  if (config.profile === 'production') {
    throw new ConfigError('the production profile needs SESSION_KEYS or SESSION_KEYS_FILE (docs/security.md)');
  }
  const generated = path.join(config.dataDir, GENERATED_KEYS_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(generated)) {
    // Written whole beside it, then linked in place: two instances starting together never
    // read a half-written file, nor replace each other's key (link fails when it exists).
    const partial = `${generated}.${process.pid}.partial`;
    fs.writeFileSync(partial, `${newSessionKeyLine()}\n`, { mode: 0o600 });
    try {
      fs.linkSync(partial, generated);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(partial);
    }
  }
  const text = fs.readFileSync(generated, 'utf8');
  return ring(parseSessionKeys(text, generated), { kind: 'file', path: generated, generated: true });
}
