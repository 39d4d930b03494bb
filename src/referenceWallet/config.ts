import path from 'node:path';
import { integerSetting, readSetting as read, type Env } from '../common/envSettings.ts';
import {
  isWalletCall,
  keyringFromEnv,
  KeyringError,
  MIN_SECRET_LENGTH,
  type WalletCall,
  type WalletKeyring,
} from '../walletApi/index.ts';
import { NO_FAULTS, type FaultSettings } from './faults.ts';
import { FORCED_REFUSALS, type ForcedRefusal } from './ledger.ts';

/** Everything the reference wallet reads from its environment, validated once at start. */
export interface WalletConfig {
  port: number;
  host: string;
  /** Shared with the game server (its WALLET_SECRETS or WALLET_SECRET): the first key signs answers, any verifies. */
  keyring: WalletKeyring;
  /** The wallet's own SQLite file. */
  dbFile: string;
  faults: FaultSettings;
}

export class WalletConfigError extends Error {}

export const DEFAULT_WALLET_PORT = 8070;
export const DEFAULT_WALLET_DB = './data/operator-wallet.sqlite';

const FAULT_VARIABLES = [
  'WALLET_FAULT_SEED',
  'WALLET_FAULT_CALLS',
  'WALLET_FAULT_LATENCY_RATE',
  'WALLET_FAULT_LATENCY_MS',
  'WALLET_FAULT_ERROR_RATE',
  'WALLET_FAULT_ERROR_STATUS',
  'WALLET_FAULT_LOST_ANSWER_RATE',
  'WALLET_FAULT_DUPLICATE_RATE',
  'WALLET_FAULT_REFUSE_RATE',
  'WALLET_FAULT_REFUSE_STATUS',
];

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  return integerSetting(env, name, { fallback, min, max }, (message) => new WalletConfigError(message));
}

function rate(env: Env, name: string): number {
  const raw = read(env, name);
  if (raw === undefined) return 0;
  if (!/^(0(\.[0-9]+)?|1(\.0+)?|\.[0-9]+)$/.test(raw)) {
    throw new WalletConfigError(`${name} must be a rate from 0 to 1 such as 0.05, got "${raw}"`);
  }
  return Number(raw);
}

function latencyRange(env: Env, name: string): { minMs: number; maxMs: number } {
  const raw = read(env, name) ?? '0';
  const match = /^([0-9]+)(?:-([0-9]+))?$/.exec(raw);
  if (!match)
    throw new WalletConfigError(`${name} must be milliseconds, fixed (250) or a range (50-500), got "${raw}"`);
  const minMs = Number(match[1]);
  const maxMs = match[2] === undefined ? minMs : Number(match[2]);
  if (maxMs < minMs) throw new WalletConfigError(`${name}: the range's end ${maxMs} is below its start ${minMs}`);
  if (maxMs > 60_000) throw new WalletConfigError(`${name} must stay within 60000 ms, got ${maxMs}`);
  return { minMs, maxMs };
}

function calls(env: Env, name: string): WalletCall[] {
  const raw = read(env, name);
  if (raw === undefined) return [...NO_FAULTS.calls];
  const list = raw.split(',').map((s) => s.trim());
  for (const call of list) {
    if (!isWalletCall(call))
      throw new WalletConfigError(`${name}: "${call}" is not one of balance, bet, win, rollback`);
  }
  return list as WalletCall[];
}

export function loadFaultSettings(env: Env): FaultSettings {
  for (const name of Object.keys(env)) {
    if (name.startsWith('WALLET_FAULT_') && !FAULT_VARIABLES.includes(name)) {
      throw new WalletConfigError(`unknown setting ${name} (known: ${FAULT_VARIABLES.join(', ')})`);
    }
  }
  const latency = { rate: rate(env, 'WALLET_FAULT_LATENCY_RATE'), ...latencyRange(env, 'WALLET_FAULT_LATENCY_MS') };
  if (latency.rate > 0 && latency.maxMs === 0) {
    throw new WalletConfigError('WALLET_FAULT_LATENCY_RATE is set: give WALLET_FAULT_LATENCY_MS too (e.g. 50-500)');
  }
  const refuseStatus = read(env, 'WALLET_FAULT_REFUSE_STATUS') ?? 'LIMIT_REACHED';
  if (!(FORCED_REFUSALS as readonly string[]).includes(refuseStatus)) {
    throw new WalletConfigError(
      `WALLET_FAULT_REFUSE_STATUS must be one of ${FORCED_REFUSALS.join(', ')}, got "${refuseStatus}"`,
    );
  }
  return {
    seed: integer(env, 'WALLET_FAULT_SEED', NO_FAULTS.seed, 0, 0xffff_ffff),
    calls: calls(env, 'WALLET_FAULT_CALLS'),
    latency,
    errorRate: rate(env, 'WALLET_FAULT_ERROR_RATE'),
    errorStatus: integer(env, 'WALLET_FAULT_ERROR_STATUS', NO_FAULTS.errorStatus, 500, 599),
    lostAnswerRate: rate(env, 'WALLET_FAULT_LOST_ANSWER_RATE'),
    duplicateRate: rate(env, 'WALLET_FAULT_DUPLICATE_RATE'),
    refuse: { rate: rate(env, 'WALLET_FAULT_REFUSE_RATE'), status: refuseStatus as ForcedRefusal },
  };
}

/** The database file alone: all the command-line tool needs. */
export function walletDbFile(env: Env = process.env, cwd = process.cwd()): string {
  return path.resolve(cwd, read(env, 'WALLET_DB') ?? DEFAULT_WALLET_DB);
}

export function loadWalletConfig(env: Env = process.env, cwd = process.cwd()): WalletConfig {
  let keyring: WalletKeyring | undefined;
  try {
    keyring = keyringFromEnv(env);
  } catch (error) {
    if (error instanceof KeyringError) throw new WalletConfigError(error.message);
    throw error;
  }
  if (keyring === undefined) {
    throw new WalletConfigError(
      `WALLET_SECRETS (id:secret,… to rotate) or WALLET_SECRET is required: the game server’s, ${MIN_SECRET_LENGTH}+ characters each`,
    );
  }
  const host = read(env, 'WALLET_HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host))
    throw new WalletConfigError(`WALLET_HOST is not a host name or address: "${host}"`);
  return {
    port: integer(env, 'WALLET_PORT', DEFAULT_WALLET_PORT, 0, 65_535),
    host,
    keyring,
    dbFile: walletDbFile(env, cwd),
    faults: loadFaultSettings(env),
  };
}
