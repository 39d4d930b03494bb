/**
 * What `npm run bench:wallet` loads: one game server (SQLite) and the reference operator
 * wallet, each its own process, a demo session for the embedded plays and portal sessions for
 * the wallet's. With `--machines`, each process is born in its CPU group.
 */
import fs from 'node:fs';
import type { SessionResponse } from '../../src/contract/api.ts';
import type { ChildProcess } from 'node:child_process';
import { SqliteStore } from '../../src/server/store/sqlite/sqliteStore.ts';
import { testLibrary } from '../../src/server/testing/blockCache.ts';
import { spawnServer, type ChildServer } from '../../src/server/testing/child.ts';
import { addTestBlocks, call, tempDataDir } from '../../src/server/testing/harness.ts';
import { spawnWallet, type SpawnedWallet } from '../../src/server/testing/operatorWallet.ts';
import { signLaunchToken } from '../../src/server/tokens.ts';
import type { CpuGroup } from '../machines/cpuGroup.ts';
import { ADDED_LATENCY_MS, type Mode } from './figures.ts';

const PORTAL_SECRET = 'portal-secret-for-the-wallet-benchmark-01';
/** The portal player, an account at the wallet; the control's bets are his too. */
export const BENCH_PLAYER = 'bench-player';

export interface Stage {
  /** The game server's. */
  url: string;
  server: ChildServer;
  wallet: SpawnedWallet;
  /** The session each mode plays with (none for the control, which calls the wallet itself). */
  tokens: Record<Mode, string>;
  /** The wallet's fault mode: 5 ms added to every call for « wallet + 5 ms », nothing otherwise. */
  setLatency(mode: Mode): Promise<void>;
  /** Stops both processes and deletes their files. */
  close(): Promise<void>;
  /** Deletes their files at once: for a run cut short, once the processes are killed. */
  deleteFiles(): void;
}

/** Where the two processes are born, and the set to register them in (ended if the run is cut short). */
export interface Placement {
  game: CpuGroup;
  wallet: CpuGroup;
  children: Set<ChildProcess>;
}

async function session(url: string, body: object): Promise<string> {
  const reply = await call<SessionResponse>(url, 'POST', '/api/session', { body });
  if (reply.status !== 200) throw new Error(`session: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.token;
}

/** Runs `spawn` (which forks before it returns) inside `group`, when there is one. */
const bornIn = <T>(group: CpuGroup | undefined, spawn: () => T): T => (group ? group.spawnInside(spawn) : spawn());

export async function setUpStage(placement?: Placement): Promise<Stage> {
  const dataDir = tempDataDir();
  let wallet: SpawnedWallet | null = null;
  let server: ChildServer | null = null;
  const deleteFiles = () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (wallet) fs.rmSync(wallet.dir, { recursive: true, force: true });
  };
  const close = async () => {
    if (server) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
    await wallet?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const store = SqliteStore.open(dataDir, await testLibrary());
    await addTestBlocks(store);
    await store.close();
    // spawnWallet and spawnServer fork before their first await: the child is born in the group.
    wallet = await bornIn(placement?.wallet, () => spawnWallet());
    placement?.children.add(wallet.child.process);
    const gameEnv = {
      DATA_DIR: dataDir,
      CLIENT_DIR: dataDir,
      DEMO_BALANCE_CENTS: '100000000',
      RATE_LIMIT_PER_MINUTE: '10000000',
      PORTAL_SECRET,
      ...wallet.gameEnv,
    };
    server = await bornIn(placement?.game, () => spawnServer(gameEnv));
    placement?.children.add(server.process);
    const url = server.url;
    await wallet.admin.createAccount(BENCH_PLAYER, { balanceCents: 1_000_000_000 });
    // A launch token opens one session: each wallet session gets its own.
    const launchToken = () =>
      signLaunchToken({ playerId: BENCH_PLAYER, exp: Math.floor(Date.now() / 1000) + 300 }, PORTAL_SECRET);
    const tokens: Record<Mode, string> = {
      embedded: await session(url, {}),
      wallet: await session(url, { launchToken: launchToken() }),
      'wallet + 5 ms': await session(url, { launchToken: launchToken() }),
      'control: wallet alone': '',
      'control: game’s calls alone': '',
    };
    const admin = wallet.admin;
    return {
      url,
      server,
      wallet,
      tokens,
      setLatency: async (mode) => {
        await admin.setFaults(
          mode === 'wallet + 5 ms' ? { WALLET_FAULT_LATENCY_RATE: 1, WALLET_FAULT_LATENCY_MS: ADDED_LATENCY_MS } : {},
        );
      },
      close,
      deleteFiles,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
