import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { walletAdmin, type WalletAdmin } from '../../referenceWallet/adminClient.ts';
import { spawnServer, type ChildServer } from './child.ts';

/** The reference operator wallet, run as the service it is (its own process and database), for the game's tests. */

export const TEST_WALLET_SECRET = 'the-game-and-its-wallet-share-this-secret';
const WALLET_MAIN = path.resolve('src/referenceWallet/main.ts');

export interface SpawnedWallet {
  url: string;
  dir: string;
  admin: WalletAdmin;
  child: ChildServer;
  /** What the game server needs to use it. */
  gameEnv: Record<string, string>;
  /** Stops it (SIGTERM, calls in progress finish); its database stays. */
  stop(): Promise<void>;
  /** Stops it and deletes its database. */
  destroy(): Promise<void>;
}

/** Starts a wallet on a free port; `dir` keeps its database across restarts (the same port is not kept). */
export async function spawnWallet(env: Record<string, string> = {}, dir?: string): Promise<SpawnedWallet> {
  const home = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-game-wallet-'));
  const child = await spawnServer(
    {
      WALLET_SECRET: TEST_WALLET_SECRET,
      WALLET_PORT: '0',
      WALLET_HOST: '127.0.0.1',
      WALLET_DB: path.join(home, 'wallet.sqlite'),
      ...env,
    },
    30_000,
    [],
    { main: WALLET_MAIN, label: 'wallet' },
  );
  const stop = async () => {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
    await child.exited;
  };
  return {
    url: child.url,
    dir: home,
    admin: walletAdmin(child.url, TEST_WALLET_SECRET),
    child,
    gameEnv: { WALLET_URL: child.url, WALLET_SECRET: TEST_WALLET_SECRET },
    stop,
    destroy: async () => {
      await stop();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
