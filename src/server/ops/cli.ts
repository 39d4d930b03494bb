import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import {
  HELP_OPTION,
  UsageError,
  consoleOutput,
  parseCommandLine,
  runCommandLine,
  type CommandOutput,
} from '../../common/commandLine.ts';
import { BlockFileError } from '../../emission/index.ts';
import { formatCents } from '../../rules/index.ts';
import { BlockLibrary } from '../blocks/blockLibrary.ts';
import { BlockRefusedError, loadBlockFile } from '../blocks/blockLoading.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { auditLedger } from './ledgerAudit.ts';
import { ledgerAuditRecordPath, writeLedgerAuditRecord } from './ledgerAuditRecord.ts';
import { formatSalesReport, salesReport } from './salesReport.ts';
import { openStore } from '../store/openStore.ts';
import { openSessionBook } from '../sessions/openSessionBook.ts';
import { purgeIdleDemoPlayers } from '../demoPurge.ts';
import { formatSupply, SUPPLY_WINDOW_MS, supplyForecast, unitsSoldByKey } from './supply.ts';
import { openTransparencyLog } from '../transparency/openLog.ts';
import { BlockPublication } from '../transparency/publication.ts';
import { backupSqliteDatabase } from '../store/sqlite/backup.ts';
import { SQLITE_FILE_NAME } from '../store/sqlite/sqliteStore.ts';
import { PORTAL_PLAYER_ID, signLaunchToken } from '../tokens.ts';
import { reconcileCommand, walletPendingCommand } from '../operatorWallet/walletCommands.ts';

export const USAGE = `usage: npm run ops -- <command>      (each command also takes --help)
  load FILE…               verify (checksum, audit, regenerated from its seed) and put block files on sale
  audit-ledger             check the money: entries, plays, blocks, balances
  launch-token PLAYER [S]  a one-use portal launch token for PLAYER valid S seconds (default and most:
                           LAUNCH_TOKEN_MAX_SECONDS, 300), for GAME_ID (needs PORTAL_SECRET)
  wallet-pending [--json]  wins and rollbacks still owed to the operator's wallet, bets without an outcome
  reconcile --from ISO --to ISO [--json]
                           the game's wallet calls of a period against the wallet's statement, line by line
  sales [open|close|auto] [--message TEXT]
                           Article 1's sales window, for every instance within SALES_POLL_MS: open or
                           close it now (--message: shown while closed), or back to the configured
                           dates (auto); alone: what it is now
  report [--json]          per stake: blocks, units sold and left, lots paid by tier next to the
                           regulation's table for the units sold, payout so far
  supply [--days N] [--json]
                           per stake and pool, at the last hour's rate: when the open and queued blocks
                           run out, and how many blocks to load for the next N days (default 7)
  backup FILE              a consistent copy of the SQLite database, taken while the server sells
  blocks close BLOCK       ends a block's sale (its remaining units are never sold) and reveals its
                           seed in the transparency log; BLOCK: its id, or the first 16+ hex digits
  demo purge [--days N] [--dry-run]
                           removes demo players unused for N days (default DEMO_PLAYER_TTL_DAYS) with
                           their demo plays and sessions; --dry-run counts them and removes nothing
The data directory is DATA_DIR (default ./data).`;

/** The longest closed message accepted: a sentence or two on the player's screen. */
const MAX_SALES_MESSAGE = 500;

/**
 * A command's own arguments (after its name), strictly: only `options` and --help, and
 * `positionals` as [fewest, most] ("load" takes any number of files).
 */
function commandArgs<const Options extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  options: Options,
  [fewest, most]: [number, number],
) {
  const parsed = parseCommandLine(() =>
    parseArgs({ args, options: { ...HELP_OPTION, ...options }, allowPositionals: true, strict: true }),
  );
  const count = parsed.positionals.length;
  if (count > most) throw new UsageError(`${command}: unexpected argument "${parsed.positionals[most]}"`);
  if (count < fewest) throw new UsageError(`${command} needs ${fewest === 1 ? 'an argument' : `${fewest} arguments`}`);
  return parsed;
}

const JSON_OPTION = { json: { type: 'boolean' } } as const;

async function run(args: string[], print: (line: string) => void): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined) throw new UsageError('no command given');
  if (command === '--help' || command === '-h' || command === 'help') {
    print(USAGE);
    return 0;
  }
  switch (command) {
    case 'load': {
      const files = commandArgs(command, rest, {}, [1, Infinity]).positionals;
      const config = loadConfig();
      const library = new BlockLibrary();
      const store = await openStore(config, library);
      try {
        for (const file of files) {
          const block = await loadBlockFile(store, config.dataDir, file);
          // The commitment to publish before the first sale (GET /api/blocks shows it too).
          const { root, seedHash } = await library.summary(block);
          print(
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
      commandArgs(command, rest, {}, [0, 0]);
      const config = loadConfig();
      const library = new BlockLibrary();
      const store = await openStore(config, library);
      try {
        const startedAt = new Date();
        const report = await store.readSnapshot(() => auditLedger(store, library));
        for (const line of report.problems) print(`PROBLEM ${line}`);
        const { real, demo } = report.pools;
        print(
          `real money: ${real.plays} plays, stakes ${formatCents(real.stakesCents)}, lots ${formatCents(real.prizesCents)}`,
        );
        print(`demo play money (apart): ${demo.plays} plays`);
        if (report.purgedDemo.plays > 0) {
          print(`purged demo plays (idle demo players removed; units still sold): ${report.purgedDemo.plays}`);
        }
        if (report.beforePools.plays > 0) {
          print(
            `before pools: ${report.beforePools.plays} plays from real blocks, ${report.beforePools.demoPlays} of them demo players'`,
          );
        }
        print(
          `${report.ok ? 'ledger OK' : 'ledger FAILED'}: ${report.plays} plays, ${report.blocks} blocks, ${report.players} players checked`,
        );
        // Left beside the data for the instances to export (spincake_ledger_audit_ok): alerts see it.
        const record = writeLedgerAuditRecord(
          config.dataDir,
          config.databaseUrl ? 'postgresql' : 'sqlite',
          report,
          startedAt,
          new Date(),
        );
        print(`result kept in ${ledgerAuditRecordPath(config.dataDir)} (${record.seconds.toFixed(1)} s)`);
        return report.ok ? 0 : 1;
      } finally {
        await store.close();
      }
    }
    case 'launch-token': {
      const [player, given] = commandArgs(command, rest, {}, [0, 2]).positionals;
      const config = loadConfig();
      const seconds = given ?? String(config.launchTokenMaxSeconds);
      if (!player || !PORTAL_PLAYER_ID.test(player))
        throw new UsageError('launch-token needs a player id (A–Z a–z 0–9 _ -)');
      if (!/^[0-9]{1,9}$/.test(seconds) || Number(seconds) < 1 || Number(seconds) > config.launchTokenMaxSeconds) {
        throw new UsageError(
          `the lifetime must be 1 to ${config.launchTokenMaxSeconds} seconds (LAUNCH_TOKEN_MAX_SECONDS)`,
        );
      }
      if (!config.portalSecret) throw new UsageError('PORTAL_SECRET is not set');
      const iat = Math.floor(Date.now() / 1000);
      // One use, for this game (GAME_ID), within its lifetime: a fresh jti each time.
      const token = signLaunchToken(
        { playerId: player, iat, exp: iat + Number(seconds), aud: config.gameId, jti: randomUUID() },
        config.portalSecret,
      );
      print(token);
      return 0;
    }
    case 'wallet-pending': {
      const { values } = commandArgs(command, rest, JSON_OPTION, [0, 0]);
      const config = loadConfig();
      const store = await openStore(config, new BlockLibrary());
      try {
        return await walletPendingCommand(store, values.json === true, print);
      } finally {
        await store.close();
      }
    }
    case 'reconcile': {
      const { values } = commandArgs(
        command,
        rest,
        { ...JSON_OPTION, from: { type: 'string' }, to: { type: 'string' } },
        [0, 0],
      );
      const { from, to } = values;
      if (!from || !to) throw new UsageError('reconcile needs --from ISO and --to ISO');
      const period = { from: new Date(from), to: new Date(to) };
      if (Number.isNaN(period.from.getTime()) || Number.isNaN(period.to.getTime()) || period.to <= period.from) {
        throw new UsageError('--from and --to must be ISO 8601 times, --to after --from');
      }
      const config = loadConfig();
      if (!config.wallet) throw new UsageError('WALLET_URL and WALLET_SECRETS (or WALLET_SECRET) are not set');
      const store = await openStore(config, new BlockLibrary());
      try {
        return await reconcileCommand(store, config.wallet, period, values.json === true, print);
      } finally {
        await store.close();
      }
    }
    case 'sales': {
      const { positionals, values } = commandArgs(command, rest, { message: { type: 'string' } }, [0, 1]);
      const [mode = 'show'] = positionals;
      if (!['show', 'open', 'close', 'auto'].includes(mode)) throw new UsageError(`sales: unknown "${mode}"`);
      const { message } = values;
      if (message !== undefined && message.trim() === '') throw new UsageError('--message needs a text');
      if (message !== undefined && mode !== 'close') throw new UsageError('--message goes with "sales close" only');
      if (message !== undefined && message.length > MAX_SALES_MESSAGE) {
        throw new UsageError(`the message is longer than ${MAX_SALES_MESSAGE} characters`);
      }
      const config = loadConfig();
      const store = await openStore(config, new BlockLibrary());
      try {
        if (mode === 'open') await store.setSalesControl({ mode: 'open', message: null }, new Date());
        if (mode === 'close') await store.setSalesControl({ mode: 'closed', message: message ?? null }, new Date());
        if (mode === 'auto') await store.setSalesControl(null, new Date());
        const control = await store.salesControl();
        const { opensAt, closesAt, closedMessage } = config.sales;
        const dates = `configured dates: ${opensAt?.toISOString() ?? 'none'} to ${closesAt?.toISOString() ?? 'none'}`;
        print(
          control
            ? `sales ${control.mode} by the operator since ${control.setAt}` +
                (control.mode === 'closed' ? `; message: ${control.message ?? closedMessage}` : '') +
                ` (${dates}; "sales auto" returns to them)`
            : `sales follow the ${dates}`,
        );
        if (mode !== 'show') {
          print(`every instance applies it within ${config.salesPollMs / 1000} s (SALES_POLL_MS)`);
        }
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'report': {
      const { values } = commandArgs(command, rest, JSON_OPTION, [0, 0]);
      const config = loadConfig();
      const store = await openStore(config, new BlockLibrary());
      try {
        const report = await store.readSnapshot(async () =>
          salesReport(await store.listBlocks(), await store.soldLots()),
        );
        print(values.json === true ? JSON.stringify(report, null, 2) : formatSalesReport(report));
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'supply': {
      const { values } = commandArgs(command, rest, { ...JSON_OPTION, days: { type: 'string' } }, [0, 0]);
      const days = values.days ?? '7';
      if (!/^[0-9]{1,3}$/.test(days) || Number(days) < 1) throw new UsageError('--days needs a number of days (1–999)');
      const config = loadConfig();
      const store = await openStore(config, new BlockLibrary());
      try {
        const now = new Date();
        const report = await store.readSnapshot(async () => {
          const blocks = await store.listBlocks();
          const sold = unitsSoldByKey(blocks, await store.unitsSoldSince(new Date(now.getTime() - SUPPLY_WINDOW_MS)));
          return supplyForecast(blocks, sold, SUPPLY_WINDOW_MS / 3_600_000, now, Number(days));
        });
        print(values.json === true ? JSON.stringify(report, null, 2) : formatSupply(report, Number(days)));
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'backup': {
      const [file] = commandArgs(command, rest, {}, [1, 1]).positionals as [string];
      const config = loadConfig();
      if (config.databaseUrl) {
        throw new UsageError(
          'backup copies the embedded SQLite database; on PostgreSQL use pg_dump or base backups with WAL archiving (README, Operating)',
        );
      }
      const summary = backupSqliteDatabase(path.join(config.dataDir, SQLITE_FILE_NAME), path.resolve(file));
      print(
        `backed up to ${summary.file}: ${summary.bytes} bytes, ${summary.plays} plays, schema version ${summary.schemaVersion}, integrity ok`,
      );
      print(
        `the block files it names stay in ${path.join(config.dataDir, 'blocks')}: copy them once (they never change)`,
      );
      return 0;
    }
    case 'blocks': {
      const [action, prefix] = commandArgs(command, rest, {}, [2, 2]).positionals as [string, string];
      if (action !== 'close') throw new UsageError('blocks close BLOCK');
      if (!/^[0-9a-f]{16,64}$/.test(prefix)) throw new UsageError('BLOCK is a block id: 16 to 64 hex digits');
      const library = new BlockLibrary();
      const config = loadConfig();
      const log = await openTransparencyLog(config);
      const publication = new BlockPublication(library, log);
      const store = await openStore(config, publication);
      try {
        const matches = (await store.listBlocks()).filter((block) => block.id.startsWith(prefix));
        if (matches.length !== 1) {
          throw new UsageError(
            matches.length === 0 ? `no block ${prefix}` : `${prefix} names ${matches.length} blocks`,
          );
        }
        const block = matches[0]!;
        // Logged first if it never was (closed before it was reached): a seed follows its commitment.
        await publication.publish(block);
        const closed = (await store.closeBlock(block.id))!;
        const revealed = await publication.revealSeeds([closed]);
        print(
          `block ${block.id}: closed at ${closed.nextPosition} of ${closed.count} units sold; ` +
            (revealed > 0 ? 'its seed is in the transparency log' : 'its seed was in the transparency log already'),
        );
      } finally {
        await store.close();
        await log.close();
        await library.close();
      }
      return 0;
    }
    case 'demo': {
      const { values, positionals } = commandArgs(
        command,
        rest,
        { days: { type: 'string' }, 'dry-run': { type: 'boolean' } },
        [1, 1],
      );
      if (positionals[0] !== 'purge') throw new UsageError('demo purge [--days N] [--dry-run]');
      const config = loadConfig();
      const days = values.days ?? String(config.demoPlayerTtlDays);
      if (!/^[0-9]{1,4}$/.test(days) || Number(days) < 1) {
        throw new UsageError('--days needs a number of days (1–9999; DEMO_PLAYER_TTL_DAYS=0 turns the timer off only)');
      }
      const dryRun = values['dry-run'] === true;
      const store = await openStore(config, new BlockLibrary());
      const sessions = await openSessionBook(config);
      try {
        const result = await purgeIdleDemoPlayers(store, sessions, { days: Number(days), now: new Date(), dryRun });
        print(
          `${dryRun ? 'would remove' : 'removed'} ${result.players} demo players unused for ${days} days, ` +
            `with ${result.plays} demo plays`,
        );
      } finally {
        await sessions.close();
        await store.close();
      }
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/**
 * `npm run ops -- …`: the exit code. A mistaken call (an unknown command or flag, a
 * missing value, a stray argument) exits 2 with the usage on stderr before anything is
 * opened; `--help` prints it on stdout; a refused block, a bad setting or any other
 * failure is one line on stderr and exit 1.
 */
export async function main(args: string[], output: CommandOutput = consoleOutput): Promise<number> {
  try {
    return await runCommandLine('error', USAGE, () => run(args, output.out), output);
  } catch (error) {
    const known = error instanceof BlockFileError || error instanceof BlockRefusedError || error instanceof ConfigError;
    output.err(`error: ${known || error instanceof Error ? (error as Error).message : String(error)}`);
    return 1;
  }
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
