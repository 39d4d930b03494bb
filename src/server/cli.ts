import { BlockFileError } from '../emission/index.ts';
import { BlockLibrary } from './blocks/blockLibrary.ts';
import { BlockRefusedError, loadBlockFile } from './blocks/blockLoading.ts';
import { ConfigError, loadConfig } from './config.ts';
import { auditLedger } from './ledgerAudit.ts';
import { openStore } from './store/openStore.ts';
import { PORTAL_PLAYER_ID, signLaunchToken } from './tokens.ts';
import { reconcileCommand, walletPendingCommand } from './wallet/walletCommands.ts';

const USAGE = `usage: tsx src/server/cli.ts <command>
  load FILE…               verify (checksum, audit, regenerated from its seed) and put block files on sale
  audit-ledger             check the money: entries, plays, blocks, balances
  launch-token PLAYER [S]  a portal launch token for PLAYER valid S seconds (needs PORTAL_SECRET)
  wallet-pending [--json]  wins and rollbacks still owed to the operator's wallet, bets without an outcome
  reconcile --from ISO --to ISO [--json]
                           the game's wallet calls of a period against the wallet's statement, line by line
The data directory is DATA_DIR (default ./data).`;

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
            `loaded ${file}: ${block.stakeCents / 100} € × ${block.count} units, block ${block.id.slice(0, 16)}…, ${block.status}; ` +
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
