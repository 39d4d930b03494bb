/**
 * The reference operator wallet: `npm run wallet` (serve) or `npm run wallet -- <command>`
 * (account administration on its database). See docs/operator-wallet.md.
 */
import { pathToFileURL } from 'node:url';
import { CliUsageError, runCli, USAGE } from './cli.ts';
import { loadWalletConfig, WalletConfigError } from './config.ts';
import { isActive } from './faults.ts';
import { WalletLedger } from './ledger.ts';
import { startWalletServer } from './server.ts';

async function serve(): Promise<void> {
  const config = loadWalletConfig();
  const ledger = WalletLedger.open(config.dbFile, { checkpointInWorker: true });
  const server = await startWalletServer({
    ledger,
    keys: config.keyring,
    port: config.port,
    host: config.host,
    faults: config.faults,
    log: (line) => console.error(`wallet: ${line}`),
  });
  if (isActive(config.faults)) console.log(`wallet: FAULT MODE ${JSON.stringify(config.faults)}`);
  console.log(`wallet serving on ${server.url} (database ${config.dbFile})`);
  const stop = () => {
    void server
      .close()
      .then(() => ledger.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(args: string[]): Promise<number> {
  if (args.length === 0 || args[0] === 'serve') {
    await serve();
    return 0;
  }
  if (args[0] === 'help' || args[0] === '--help') {
    console.log(USAGE);
    return 0;
  }
  return runCli(args);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code !== 0) process.exitCode = code;
    },
    (error: unknown) => {
      const known = error instanceof WalletConfigError || error instanceof CliUsageError;
      console.error(`wallet: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof CliUsageError) console.error(USAGE);
      if (!known) console.error(error);
      process.exit(2);
    },
  );
}
