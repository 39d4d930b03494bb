import path from 'node:path';
import { BlockFileError } from '../emission/index.ts';
import { formatCents } from '../rules/index.ts';
import { BlockLibrary } from './blocks/blockLibrary.ts';
import { BlockRefusedError, loadBlockFile } from './blocks/blockLoading.ts';
import { ConfigError, loadConfig } from './config.ts';
import { auditLedger } from './ledgerAudit.ts';
import { formatSalesReport, salesReport } from './salesReport.ts';
import { openStore } from './store/openStore.ts';
import { backupSqliteDatabase } from './store/sqlite/backup.ts';
import { SQLITE_FILE_NAME } from './store/sqlite/sqliteStore.ts';
import { PORTAL_PLAYER_ID, signLaunchToken } from './tokens.ts';
import { reconcileCommand, walletPendingCommand } from './wallet/walletCommands.ts';

const USAGE = `usage: tsx src/server/cli.ts <command>
  load FILE…               verify (checksum, audit, regenerated from its seed) and put block files on sale
  audit-ledger             check the money: entries, plays, blocks, balances
  launch-token PLAYER [S]  a portal launch token for PLAYER valid S seconds (needs PORTAL_SECRET)
  wallet-pending [--json]  wins and rollbacks still owed to the operator's wallet, bets without an outcome
  reconcile --from ISO --to ISO [--json]
                           the game's wallet calls of a period against the wallet's statement, line by line
  sales [open|close|auto] [--message TEXT]
                           Article 1's sales window, for every instance within SALES_POLL_MS: open or
                           close it now (--message: shown while closed), or back to the configured
                           dates (auto); alone: what it is now
  report [--json]          per stake: blocks, units sold and left, lots paid by tier next to the
                           regulation's table for the units sold, payout so far
  backup FILE              a consistent copy of the SQLite database, taken while the server sells
The data directory is DATA_DIR (default ./data).`;

/** The longest closed message accepted: a sentence or two on the player's screen. */
const MAX_SALES_MESSAGE = 500;

class UsageError extends Error {}

/** The value after `name` in the arguments. */
function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const config = loadConfig();
  switch (command) {
    case 'load': {
      if (rest.length === 0) throw new UsageError('load needs at least one block file');
      const library = new BlockLibrary();
      const store = await openStore(config, library);
      try {
        for (const file of rest) {
          const block = await loadBlockFile(store, config.dataDir, file);
          // The commitment to publish before the first sale (GET /api/blocks shows it too).
          const { root, seedHash } = await library.summary(block);
          console.log(
            `loaded ${file}: ${block.stakeCents / 100} € × ${block.count} units, ${block.pool} block ${block.id.slice(0, 16)}…, ${block.status}; ` +
              `root ${root}, seed hash ${seedHash}`,
          );
        }
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'audit-ledger': {
      const library = new BlockLibrary();
      const store = await openStore(config, library);
      try {
        const report = await store.readSnapshot(() => auditLedger(store, library));
        for (const line of report.problems) console.log(`PROBLEM ${line}`);
        const { real, demo } = report.pools;
        console.log(
          `real money: ${real.plays} plays, stakes ${formatCents(real.stakesCents)}, lots ${formatCents(real.prizesCents)}`,
        );
        console.log(`demo play money (apart): ${demo.plays} plays`);
        if (report.beforePools.plays > 0) {
          console.log(
            `before pools: ${report.beforePools.plays} plays from real blocks, ${report.beforePools.demoPlays} of them demo players'`,
          );
        }
        console.log(
          `${report.ok ? 'ledger OK' : 'ledger FAILED'}: ${report.plays} plays, ${report.blocks} blocks, ${report.players} players checked`,
        );
        return report.ok ? 0 : 1;
      } finally {
        await store.close();
      }
    }
    case 'launch-token': {
      const [player, seconds = '3600'] = rest;
      if (!player || !PORTAL_PLAYER_ID.test(player))
        throw new UsageError('launch-token needs a player id (A–Z a–z 0–9 _ -)');
      if (!/^[0-9]{1,9}$/.test(seconds)) throw new UsageError('the lifetime must be a number of seconds');
      if (!config.portalSecret) throw new UsageError('PORTAL_SECRET is not set');
      const exp = Math.floor(Date.now() / 1000) + Number(seconds);
      console.log(signLaunchToken({ playerId: player, exp }, config.portalSecret));
      return 0;
    }
    case 'wallet-pending': {
      const store = await openStore(config, new BlockLibrary());
      try {
        return await walletPendingCommand(store, rest.includes('--json'), console.log);
      } finally {
        await store.close();
      }
    }
    case 'reconcile': {
      const from = option(rest, '--from');
      const to = option(rest, '--to');
      if (!from || !to) throw new UsageError('reconcile needs --from ISO and --to ISO');
      const period = { from: new Date(from), to: new Date(to) };
      if (Number.isNaN(period.from.getTime()) || Number.isNaN(period.to.getTime()) || period.to <= period.from) {
        throw new UsageError('--from and --to must be ISO 8601 times, --to after --from');
      }
      if (!config.wallet) throw new UsageError('WALLET_URL and WALLET_SECRET are not set');
      const store = await openStore(config, new BlockLibrary());
      try {
        return await reconcileCommand(store, config.wallet, period, rest.includes('--json'), console.log);
      } finally {
        await store.close();
      }
    }
    case 'sales': {
      const [mode = 'show', ...more] = rest;
      if (!['show', 'open', 'close', 'auto'].includes(mode)) throw new UsageError(`sales: unknown "${mode}"`);
      const message = option(more, '--message');
      if (more.includes('--message') && (message === undefined || message.trim() === '')) {
        throw new UsageError('--message needs a text');
      }
      if (message !== undefined && mode !== 'close') throw new UsageError('--message goes with "sales close" only');
      if (message !== undefined && message.length > MAX_SALES_MESSAGE) {
        throw new UsageError(`the message is longer than ${MAX_SALES_MESSAGE} characters`);
      }
      const store = await openStore(config, new BlockLibrary());
      try {
        if (mode === 'open') await store.setSalesControl({ mode: 'open', message: null }, new Date());
        if (mode === 'close') await store.setSalesControl({ mode: 'closed', message: message ?? null }, new Date());
        if (mode === 'auto') await store.setSalesControl(null, new Date());
        const control = await store.salesControl();
        const { opensAt, closesAt, closedMessage } = config.sales;
        const dates = `configured dates: ${opensAt?.toISOString() ?? 'none'} to ${closesAt?.toISOString() ?? 'none'}`;
        console.log(
          control
            ? `sales ${control.mode} by the operator since ${control.setAt}` +
                (control.mode === 'closed' ? `; message: ${control.message ?? closedMessage}` : '') +
                ` (${dates}; "sales auto" returns to them)`
            : `sales follow the ${dates}`,
        );
        if (mode !== 'show') {
          console.log(`every instance applies it within ${config.salesPollMs / 1000} s (SALES_POLL_MS)`);
        }
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'report': {
      const store = await openStore(config, new BlockLibrary());
      try {
        const report = await store.readSnapshot(async () =>
          salesReport(await store.listBlocks(), await store.soldLots()),
        );
        console.log(rest.includes('--json') ? JSON.stringify(report, null, 2) : formatSalesReport(report));
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'backup': {
      const [file] = rest;
      if (!file) throw new UsageError('backup needs the file to write');
      if (config.databaseUrl) {
        throw new UsageError(
          'backup copies the embedded SQLite database; on PostgreSQL use pg_dump or base backups with WAL archiving (README, Operating)',
        );
      }
      const summary = backupSqliteDatabase(path.join(config.dataDir, SQLITE_FILE_NAME), path.resolve(file));
      console.log(
        `backed up to ${summary.file}: ${summary.bytes} bytes, ${summary.plays} plays, schema version ${summary.schemaVersion}, integrity ok`,
      );
      console.log(
        `the block files it names stay in ${path.join(config.dataDir, 'blocks')}: copy them once (they never change)`,
      );
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof BlockFileError || error instanceof BlockRefusedError || error instanceof ConfigError) {
      console.error(`error: ${error.message}`);
      process.exit(1);
    }
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
