/**
 * `npm run portal`: a real-money round in the portal, end to end, in one command. Starts
 *
 *   - the reference operator wallet (src/referenceWallet, its own process and SQLite file in
 *     data/portal-wallet.sqlite), with the demo player's account (100,00 € on first start);
 *   - the game server (npm start's, DATA_DIR ./data), portal sessions on, demo play off, its
 *     portal players' money at that wallet (WALLET_URL, WALLET_SECRET); real money buys only
 *     real blocks, which come only from `ops load`: on a first run this script generates one
 *     per stake and loads it as `ops load` does (audit, regenerated from its seed), itself;
 *   - the demo portal (examples/portal) that launches the game in an iframe with a signed
 *     launch token.
 *
 * The shared secrets are made fresh on every start. Options: --player ID (default
 * demo-player), --balance-cents C (opening balance of a new account). Ctrl-C stops all three.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { walletAdmin } from '../src/referenceWallet/adminClient.ts';
import { STAKES_CENTS } from '../src/rules/index.ts';
import { BlockLibrary } from '../src/server/blocks/blockLibrary.ts';
import { loadBlockFile, makeBlockFile } from '../src/server/blocks/blockLoading.ts';
import { loadConfig } from '../src/server/config.ts';
import { openStore } from '../src/server/store/openStore.ts';
import { startPortalDemo } from './portal-demo.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const GAME_PORT = process.env.PORT ?? '8080';
const WALLET_PORT = process.env.WALLET_PORT ?? '8070';
const PORTAL_PORT = Number(process.env.PORTAL_DEMO_PORT ?? 8090);

const children: ChildProcess[] = [];

/** Starts `node --import tsx MAIN` and resolves with the URL it prints once it listens. */
function start(label: string, main: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, main)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split('\n').filter(Boolean)) console.log(`[${label}] ${line}`);
      const match = /serving on (http:\/\/[^\s]+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${label} stopped (${code}) before serving:\n${output}`)));
  });
}

/** A real block for each stake that has none with units left: generated, then loaded as `ops load` does. */
async function loadRealBlocks(): Promise<void> {
  const config = loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(ROOT, 'data') });
  const store = await openStore(config, new BlockLibrary());
  try {
    const onSale = await store.stakesWithUnits('real');
    for (const stakeCents of STAKES_CENTS.filter((stake) => !onSale.has(stake))) {
      // Generated apart, then given to the same loading as `ops load FILE`, which copies it in.
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-portal-'));
      const made = await makeBlockFile(stakeCents, scratch, 'real');
      const block = await loadBlockFile(store, config.dataDir, made.block.filePath);
      fs.rmSync(scratch, { recursive: true, force: true });
      console.log(`[ops] loaded real block ${block.id.slice(0, 12)}… for ${stakeCents / 100} €; root ${made.root}`);
    }
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      player: { type: 'string', default: 'demo-player' },
      'balance-cents': { type: 'string', default: '10000' },
    },
  });
  const balanceCents = Number(values['balance-cents']);
  if (!Number.isSafeInteger(balanceCents) || balanceCents < 0) throw new Error('--balance-cents must be whole cents');
  const walletSecret = randomBytes(24).toString('hex');
  const portalSecret = randomBytes(24).toString('hex');

  const walletUrl = await start('wallet', 'src/referenceWallet/main.ts', {
    WALLET_SECRET: walletSecret,
    WALLET_PORT,
    WALLET_DB: path.join(ROOT, 'data', 'portal-wallet.sqlite'),
  });
  const admin = walletAdmin(walletUrl, walletSecret);
  const created = await admin.createAccount(values.player, { balanceCents });
  const account = created.status === 'OK' ? created : await admin.account(values.player);
  if (account.status !== 'OK' || !('account' in account)) throw new Error(`wallet account: ${JSON.stringify(account)}`);
  console.log(`[wallet] ${values.player}: ${(account.account.balanceCents / 100).toFixed(2)} € at the operator`);

  await loadRealBlocks();

  const portalOrigin = `http://localhost:${PORTAL_PORT}`;
  const gameUrl = await start('game', 'src/server/main.ts', {
    PORT: GAME_PORT,
    PORTAL_SECRET: portalSecret,
    PORTAL_ORIGINS: portalOrigin,
    DEMO_MODE: 'off',
    WALLET_URL: walletUrl,
    WALLET_SECRET: walletSecret,
  });
  const portal = await startPortalDemo({
    port: PORTAL_PORT,
    host: 'localhost',
    gameUrl: gameUrl.replace('127.0.0.1', 'localhost') + '/',
    portalSecret,
    playerId: values.player,
  });
  console.log(`\nOpen ${portal.url} — ${values.player} plays with the money of their operator account.`);
  console.log(`Top it up: npm run wallet -- deposit ${values.player} 5000 (WALLET_DB=data/portal-wallet.sqlite)\n`);

  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
    void portal.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`portal: ${error instanceof Error ? error.message : String(error)}`);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
});
