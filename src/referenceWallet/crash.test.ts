import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callWallet, type WalletRequests } from '../walletApi/index.ts';
import { walletAdmin } from './adminClient.ts';
import { WalletLedger } from './ledger.ts';
import { betBody, TEST_SECRET, tempWalletDir } from './testing.ts';

const MAIN = path.resolve('src/referenceWallet/main.ts');
const dir = tempWalletDir();
const dbFile = path.join(dir, 'wallet.sqlite');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Child {
  process: ChildProcess;
  url: string;
  exited: Promise<number | string>;
}

/** `node --import tsx src/referenceWallet/main.ts` with this environment; resolves once it listens. */
function spawnWallet(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, WALLET_PORT: '0', WALLET_SECRET: TEST_SECRET, WALLET_DB: dbFile, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the wallet did not start:\n${output}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /wallet serving on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1]!, exited });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`the wallet exited (${code}) before listening:\n${output}`), { output, code }));
    });
  });
}

describe('the wallet process', () => {
  it('refuses to start on a bad setting, naming it', async () => {
    const failed = await spawnWallet({ WALLET_SECRET: 'short' }).catch((e: { output: string; code: number }) => e);
    expect(failed).toMatchObject({ code: 2, output: expect.stringMatching(/WALLET_SECRET must be at least 32/) });
  });

  it('keeps every acknowledged bet through SIGKILL right after the answer', async () => {
    let wallet = await spawnWallet({});
    expect(
      (await walletAdmin(wallet.url, TEST_SECRET).createAccount('crash', { balanceCents: 1_000_000 })).status,
    ).toBe('OK');
    const acknowledged = new Map<string, { bet: WalletRequests['bet']; transactionId: string; balanceCents: number }>();
    for (let round = 0; round < 3; round++) {
      // A stream of bets from several callers; the process is killed the moment the 20th answer of the round arrives.
      const target = acknowledged.size + 20;
      let killed = false;
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          while (!killed) {
            const bet = betBody('crash', 100);
            const result = await callWallet(wallet.url, TEST_SECRET, 'bet', bet, { timeoutMs: 10_000 });
            if (result.kind !== 'answer') return; // killed under this call: outcome unknown
            expect(result.status).toBe('OK');
            if (result.status === 'OK' && 'transactionId' in result.body) {
              acknowledged.set(bet.requestId, { bet, ...result.body });
            }
            if (acknowledged.size >= target && !killed) {
              killed = true;
              wallet.process.kill('SIGKILL');
            }
          }
        }),
      );
      expect(await wallet.exited).toBe('SIGKILL');
      wallet = await spawnWallet({});
      // Every acknowledged bet is there: its retry answers the same transaction, nothing moves.
      for (const { bet, transactionId } of acknowledged.values()) {
        const again = await callWallet(wallet.url, TEST_SECRET, 'bet', bet);
        expect(again).toMatchObject({ kind: 'answer', status: 'OK', body: { transactionId } });
      }
    }
    wallet.process.kill('SIGKILL');
    await wallet.exited;
    const ledger = WalletLedger.open(dbFile);
    try {
      expect(ledger.checkBalances()).toEqual([]);
      const bets = ledger.statement(new Date(0), new Date('2100-01-01')).transactions.filter((t) => t.kind === 'bet');
      for (const requestId of acknowledged.keys()) expect(bets.some((t) => t.requestId === requestId)).toBe(true);
      expect(ledger.view('crash')!.balanceCents).toBe(1_000_000 - 100 * bets.length);
    } finally {
      ledger.close();
    }
  });
});
