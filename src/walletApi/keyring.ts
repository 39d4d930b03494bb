import { memoByKey } from './memo.ts';

/**
 * The secrets the game and its wallet share (`../shared/spec/wallet-api.md`, Transport): a
 * small keyring, the first key signs and any key verifies, so that a secret is rotated
 * without a stop. Read from `WALLET_SECRETS="id1:secret1,id2:secret2"`, or from the single
 * `WALLET_SECRET` as the key `default`.
 */

export interface WalletKey {
  id: string;
  secret: string;
}

export interface WalletKeyring {
  /** The key that signs: the first listed. */
  readonly signer: WalletKey;
  /** Every key that verifies, the signer first. */
  readonly keys: readonly WalletKey[];
}

/**
 * The shortest shared secret accepted, in characters: what the contract asks of each wallet
 * key, and what the game server asks of PORTAL_SECRET too (one number for both; the
 * production profile also estimates each secret's entropy: src/server/security).
 */
export const MIN_SECRET_LENGTH = 32;
/** The id of `WALLET_SECRET` alone. */
export const DEFAULT_KEY_ID = 'default';
/** Key ids travel in a header: short, and plain characters only. */
export const KEY_ID = /^[A-Za-z0-9_.-]{1,32}$/;

/** A keyring setting that breaks the rules; the message names the setting and the key. */
export class KeyringError extends Error {}

export function keyringOf(keys: readonly WalletKey[]): WalletKeyring {
  if (keys.length === 0) throw new KeyringError('a keyring needs at least one key');
  return { signer: keys[0]!, keys };
}

/** A keyring of one secret (id `default`): made once per secret, for callers that pass a secret to each call. */
export const singleKeyring = memoByKey((secret): WalletKeyring => keyringOf([{ id: DEFAULT_KEY_ID, secret }]));

/** Why `secret` is too short, `label` naming it (the setting, and the key within a keyring); null when it is not. */
export function shortSecretProblem(label: string, secret: string): string | null {
  return secret.length < MIN_SECRET_LENGTH
    ? `${label} must be at least ${MIN_SECRET_LENGTH} characters long, got ${secret.length}`
    : null;
}

function checkSecret(label: string, secret: string): void {
  const problem = shortSecretProblem(label, secret);
  if (problem !== null) throw new KeyringError(problem);
}

/** `id1:secret1,id2:secret2`: each id once, each secret MIN_SECRET_LENGTH characters or more (no comma in it). */
export function parseKeyring(name: string, raw: string): WalletKeyring {
  const keys: WalletKey[] = [];
  for (const [index, entry] of raw.split(',').entries()) {
    const colon = entry.indexOf(':');
    if (colon < 0) {
      throw new KeyringError(`${name}: entry ${index + 1} is not id:secret (as in "2026-12:…,2026-06:…")`);
    }
    const id = entry.slice(0, colon).trim();
    const secret = entry.slice(colon + 1);
    if (!KEY_ID.test(id)) {
      throw new KeyringError(`${name}: key id "${id}" must be 1–32 characters among A–Z a–z 0–9 _ . -`);
    }
    if (keys.some((key) => key.id === id)) throw new KeyringError(`${name}: key id "${id}" is listed twice`);
    checkSecret(`${name}: the secret of key "${id}"`, secret);
    keys.push({ id, secret });
  }
  return keyringOf(keys);
}

/**
 * The keyring from the environment: `WALLET_SECRETS` or `WALLET_SECRET`, exactly one of
 * them; undefined when neither is set.
 */
export function keyringFromEnv(env: Record<string, string | undefined>): WalletKeyring | undefined {
  const many = env.WALLET_SECRETS?.trim() || undefined;
  const one = env.WALLET_SECRET?.trim() || undefined;
  if (many !== undefined && one !== undefined) {
    throw new KeyringError('WALLET_SECRETS and WALLET_SECRET are both set: keep one (WALLET_SECRETS to rotate)');
  }
  if (many !== undefined) return parseKeyring('WALLET_SECRETS', many);
  if (one === undefined) return undefined;
  checkSecret('WALLET_SECRET', one);
  return keyringOf([{ id: DEFAULT_KEY_ID, secret: one }]);
}
