import { ConfigError, loadConfig } from './config.ts';
import type { AppExtension } from './http/context.ts';
import { startServer } from './server.ts';

/** `npm start`: the game server, configured from the environment. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`spincake: configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const extensions: AppExtension[] = [];
  if (config.testMode) {
    console.warn('!'.repeat(78));
    console.warn('!!! SPINCAKE_TEST_MODE=1: /api/test/* can choose units, balances and sales.');
    console.warn('!!! NEVER run a real sale like this.');
    console.warn('!'.repeat(78));
    // The one place a server process loads test mode, and only when it is on: a real
    // server never even reads its code (eslint.config.js keeps it that way).
    const { testModeExtension } = await import('./testMode/index.ts');
    extensions.push(testModeExtension());
  }
  const server = await startServer(config, { extensions });
  console.log(
    `spincake: serving on ${server.url} (data in ${config.dataDir}; demo mode ${config.demoMode ? 'on' : 'off'}` +
      `${config.portalSecret ? ', portal sessions on' : ''}${server.metricsUrl ? `; metrics on ${server.metricsUrl}` : ''})`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`spincake: ${signal}: finishing requests in flight, then stopping`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('spincake: error while stopping:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`spincake: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
