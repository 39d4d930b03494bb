import { ConfigError, loadConfig } from './config.ts';
import type { AppExtension } from './http/context.ts';
import { unsafeSettings } from './security/profile.ts';
import { startServer } from './server.ts';
import { loadSessionKeyring } from './sessions/sessionKeys.ts';

/** After the drain time, how long closing the store may take before the process exits regardless. */
const STORE_CLOSE_GRACE_SECONDS = 5;

/** `npm start`: the game server, configured from the environment. */
async function main(): Promise<void> {
  let config;
  let sessionKeys;
  try {
    config = loadConfig();
    const problems = unsafeSettings(config);
    if (config.profile === 'production' && problems.length > 0) {
      for (const problem of problems) console.error(`spincake: refused (SPINCAKE_PROFILE=production): ${problem}`);
      process.exit(1);
    }
    for (const problem of problems) console.warn(`spincake: warning (demo profile): ${problem}`);
    sessionKeys = loadSessionKeyring(config);
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
  const server = await startServer(config, { extensions, sessionKeys });
  console.log(
    `spincake: serving on ${server.url} (data in ${config.dataDir}; demo mode ${config.demoMode ? 'on' : 'off'}` +
      `${config.portalSecret ? ', portal sessions on' : ''}${server.metricsUrl ? `; metrics on ${server.metricsUrl}` : ''})`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const drainSeconds = config.limits.shutdownDrainSeconds;
    console.log(`spincake: ${signal}: finishing requests in flight (at most ${drainSeconds} s), then stopping`);
    // Should closing the store itself hang, the process still ends.
    setTimeout(
      () => {
        console.error('spincake: not stopped after the drain time: exiting');
        process.exit(1);
      },
      (drainSeconds + STORE_CLOSE_GRACE_SECONDS) * 1000,
    ).unref();
    server.close().then(
      ({ cut }) => {
        if (cut > 0) console.warn(`spincake: drain time over: ${cut} connection(s) cut with a request unanswered`);
        process.exit(0);
      },
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
