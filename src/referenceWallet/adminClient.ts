import { randomUUID } from 'node:crypto';
import {
  KEY_ID_HEADER,
  SIGNATURE_HEADER,
  signedHeaders,
  singleKeyring,
  TIMESTAMP_HEADER,
  verifyMessage,
  type WalletKeys,
} from '../walletApi/index.ts';
import type { FaultCounts, FaultSettings } from './faults.ts';
import type { AccountView } from './ledger.ts';

/**
 * A small client of the reference wallet's admin endpoints (tests, the demo portal, ops
 * scripts): every request signed as the contract signs (version 2: path, timestamp, body;
 * a GET signs its request target), every answer's signature checked for the same path.
 */

export type AdminAnswer = { status: 'OK'; account: AccountView } | { status: string; reason?: string };

export type FaultsAnswer =
  { status: 'OK'; faults: FaultSettings; counts: FaultCounts } | { status: string; reason?: string };

export class WalletAdminError extends Error {}

async function exchange(url: string, keys: WalletKeys, method: 'GET' | 'POST', target: string, body?: object) {
  const keyring = typeof keys === 'string' ? singleKeyring(keys) : keys;
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const base = new URL(url);
  const path = `${base.pathname.replace(/\/+$/, '')}${target}`;
  const response = await fetch(`${base.origin}${path}`, {
    method,
    headers: {
      ...(raw === undefined ? {} : { 'content-type': 'application/json' }),
      ...signedHeaders(keyring, path, raw ?? ''),
    },
    body: raw,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const verified = verifyMessage(keyring, path, text, {
    timestamp: response.headers.get(TIMESTAMP_HEADER),
    signature: response.headers.get(SIGNATURE_HEADER),
    keyId: response.headers.get(KEY_ID_HEADER),
  });
  if (!verified.ok) {
    throw new WalletAdminError(
      `${method} ${target}: HTTP ${response.status}, answer not signed by this secret (it ${verified.reason})`,
    );
  }
  return { httpStatus: response.status, body: JSON.parse(text) as unknown };
}

export interface WalletAdmin {
  createAccount(
    playerId: string,
    options?: { balanceCents?: number; dailyStakeLimitCents?: number | null; blocked?: boolean },
  ): Promise<AdminAnswer>;
  /** Deposit (> 0) or withdrawal (< 0); a fresh requestId unless one is given. */
  adjust(playerId: string, amountCents: number, requestId?: string): Promise<AdminAnswer>;
  block(playerId: string, blocked: boolean): Promise<AdminAnswer>;
  setDailyStakeLimit(playerId: string, dailyStakeLimitCents: number | null): Promise<AdminAnswer>;
  account(playerId: string): Promise<AdminAnswer>;
  /** Replaces the fault mode's settings: `{WALLET_FAULT_LOST_ANSWER_RATE: 0.5, …}`, the others off; `{}` ends it. */
  setFaults(settings: Record<string, string | number>): Promise<FaultsAnswer>;
  /** The fault settings in force and how many faults of each kind they made. */
  faults(): Promise<FaultsAnswer>;
}

export function walletAdmin(url: string, keys: WalletKeys): WalletAdmin {
  const post = async <T = AdminAnswer>(path: string, body: object) =>
    (await exchange(url, keys, 'POST', path, body)).body as T;
  return {
    createAccount: (playerId, options = {}) => post('/admin/accounts', { playerId, ...options }),
    adjust: (playerId, amountCents, requestId = `admin-${randomUUID()}`) =>
      post('/admin/adjust', { requestId, playerId, amountCents }),
    block: (playerId, blocked) => post('/admin/block', { playerId, blocked }),
    setDailyStakeLimit: (playerId, dailyStakeLimitCents) => post('/admin/limit', { playerId, dailyStakeLimitCents }),
    setFaults: (settings) => post<FaultsAnswer>('/admin/faults', settings),
    faults: async () => (await exchange(url, keys, 'GET', '/admin/faults')).body as FaultsAnswer,
    account: async (playerId) =>
      (await exchange(url, keys, 'GET', `/admin/accounts/${encodeURIComponent(playerId)}`)).body as AdminAnswer,
  };
}
