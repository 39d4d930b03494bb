import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  callWallet,
  type CallOptions,
  type WalletCall,
  type WalletRequests,
  type WalletResult,
} from '../walletApi/index.ts';
import { walletAdmin, type WalletAdmin } from './adminClient.ts';
import type { FaultSettings } from './faults.ts';
import { WalletLedger, type LedgerOptions } from './ledger.ts';
import { startWalletServer, type WalletServer } from './server.ts';

/** Helpers for the reference wallet's tests: a wallet on a free port with its own temporary database. */

export const TEST_SECRET = 'a-wallet-secret-of-at-least-32-chars!';

export interface TestWallet {
  url: string;
  dir: string;
  dbFile: string;
  ledger: WalletLedger;
  server: WalletServer;
  admin: WalletAdmin;
  call<C extends WalletCall>(call: C, body: WalletRequests[C], options?: CallOptions): Promise<WalletResult<C>>;
  /** Stops the server and closes the database, keeping the directory. */
  stop(): Promise<void>;
  /** Stops and deletes everything. */
  close(): Promise<void>;
}

export function tempWalletDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-wallet-'));
}

export async function startTestWallet(options: { faults?: FaultSettings; ledger?: LedgerOptions; dir?: string } = {}) {
  const dir = options.dir ?? tempWalletDir();
  const dbFile = path.join(dir, 'wallet.sqlite');
  const ledger = WalletLedger.open(dbFile, options.ledger);
  const server = await startWalletServer({ ledger, keys: TEST_SECRET, faults: options.faults });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
    ledger.close();
  };
  const wallet: TestWallet = {
    url: server.url,
    dir,
    dbFile,
    ledger,
    server,
    admin: walletAdmin(server.url, TEST_SECRET),
    call: (call, body, callOptions) => callWallet(server.url, TEST_SECRET, call, body, callOptions),
    stop,
    close: async () => {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return wallet;
}

export const id = (prefix: string) => `${prefix}-${randomUUID()}`;

export function betBody(playerId: string, amountCents: number, requestId = id('bet'), roundId = id('play')) {
  return { requestId, playerId, roundId, amountCents, currency: 'EUR' as const };
}

export function settleBody(bet: WalletRequests['bet'], amountCents: number, requestId = id('settle')) {
  return {
    requestId,
    playerId: bet.playerId,
    roundId: bet.roundId,
    betRequestId: bet.requestId,
    amountCents,
    currency: 'EUR' as const,
  };
}
