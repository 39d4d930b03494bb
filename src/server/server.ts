import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { BlockLibrary } from './blocks/blockLibrary.ts';
import { DemoBlocks } from './blocks/demoBlocks.ts';
import type { ServerConfig } from './config.ts';
import type { AppContext, AppExtension } from './http/context.ts';
import { ensurePrivateDataDir } from './dataFiles.ts';
import type { Connections } from './http/connections.ts';
import { serveMetrics, type MetricsServer } from './metrics/metricsServer.ts';
import type { ServerMetrics } from './metrics/serverMetrics.ts';
import { SaleRoots } from './sale/roots.ts';
import type { SessionKeyring } from './sessions/sessionKeys.ts';
import { openStore } from './store/openStore.ts';
import type { Store } from './store/types.ts';
import { HeadScheduler } from './transparency/headScheduler.ts';
import { openTransparencyLog } from './transparency/openLog.ts';
import { BlockPublication } from './transparency/publication.ts';

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  store: Store;
  library: BlockLibrary;
  /** The demo pool's supply (demo play on); null with demo play off. */
  demoBlocks: DemoBlocks | null;
  /** http://host:port actually bound (port 0 picks a free one). */
  url: string;
  /** http://host:port/metrics on its own port (METRICS_PORT); null when metrics are off. */
  metricsUrl: string | null;
  /**
   * Stops accepting, closes idle connections at once, answers the requests in flight and
   * cuts what is still open after the drain time (SHUTDOWN_DRAIN_SECONDS); then the store closes.
   */
  close(): Promise<ClosedServer>;
}

export interface ClosedServer {
  /** Connections still open when the drain time ran out (their requests got no answer). */
  cut: number;
}

/**
 * Opens the store (with demo play on, generating a demo block per stake on a first start),
 * then serves the API and the client. Real blocks come only from `ops load`.
 */
export interface StartOptions {
  log?: (line: string) => void;
  /** Block files already read (tests share one across servers; blocks never change). */
  library?: BlockLibrary;
  /** Runs on the opened store before the first demo blocks and before listening. */
  prepare?: (store: Store) => Promise<void>;
  /** Plugged into the app from outside (test mode); none on a real server. */
  extensions?: readonly AppExtension[];
  /** The session keys, already read and checked (main.ts); read from the configuration otherwise. */
  sessionKeys?: SessionKeyring;
}

/**
 * The server's parts, assembled as `startServer` assembles them, but not listening: the
 * app answers `app.inject` (tests of the API's behaviour need no socket).
 */
export interface AssembledServer extends Omit<RunningServer, 'url' | 'metricsUrl' | 'close'> {
  connections: Connections;
  metrics: ServerMetrics | null;
  /** Closes the app, then the rest in order: demo supply, wallet drainer, log heads, store, log. */
  close(): Promise<void>;
  /** What close() does once the app is closed (startServer drains the connections first). */
  closeAfterApp(): Promise<void>;
}

export async function assembleServer(config: ServerConfig, options: StartOptions = {}): Promise<AssembledServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const library = options.library ?? new BlockLibrary();
  ensurePrivateDataDir(config.dataDir);
  const transparency = await openTransparencyLog(config);
  const publication = new BlockPublication(library, transparency);
  let store: Store;
  try {
    store = await openStore(config, publication, { checkpointInWorker: true });
  } catch (error) {
    await transparency.close();
    throw error;
  }
  let scheduler: HeadScheduler | null = null;
  try {
    await options.prepare?.(store);
    // The roots a sale awaits are the blocks' publications: commitment and log entry.
    const roots = new SaleRoots(store, publication);
    const demoBlocks = config.demoMode
      ? new DemoBlocks({
          store,
          publish: (block) => publication.publish(block),
          dataDir: config.dataDir,
          refillBelowUnits: config.demoRefillUnits,
          onAdded: (block) => {
            library.preload([block]);
            roots.add(block);
          },
          log,
        })
      : null;
    await demoBlocks?.ensureFirstBlocks();
    const blocks = await store.listBlocks();
    library.preload(blocks);
    roots.know(blocks);
    demoBlocks?.checkEachStake();
    const { app, context, connections, metrics } = await buildApp({
      config,
      store,
      library,
      publication,
      roots,
      saleWatcher: demoBlocks,
      extensions: options.extensions,
      sessionKeys: options.sessionKeys,
    });
    const headScheduler = new HeadScheduler(
      publication,
      () => store.listBlocks(),
      (error) => app.log.warn({ err: error }, 'transparency log: a turn failed; the next one tries again'),
    );
    scheduler = headScheduler;
    headScheduler.start();
    // Every instance sends the wins and rollbacks owed, those of a crashed one included.
    context.wallet?.drainer.start();
    const closeAfterApp = async () => {
      demoBlocks?.close();
      await context.wallet?.drainer.stop();
      await headScheduler.stop();
      await store.close();
      await transparency.close();
    };
    return {
      app,
      context,
      store,
      library,
      demoBlocks,
      connections,
      metrics,
      closeAfterApp,
      close: async () => {
        await app.close();
        await closeAfterApp();
      },
    };
  } catch (error) {
    await scheduler?.stop();
    await store.close();
    await transparency.close();
    throw error;
  }
}

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const assembled = await assembleServer(config, options);
  const { app, connections, metrics } = assembled;
  let metricsServer: MetricsServer | null = null;
  let url: string;
  try {
    const address = await app.listen({ port: config.port, host: config.host });
    url = address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    const { metrics: metricsAt } = config;
    if (metrics && metricsAt) {
      metricsServer = await serveMetrics(metrics.registry, metricsAt.port, metricsAt.host).catch((error) => {
        throw new Error(`cannot serve metrics on port ${metricsAt.port}: ${(error as Error).message}`);
      });
    }
  } catch (error) {
    await assembled.close();
    throw error;
  }
  let closing: Promise<ClosedServer> | null = null;
  return {
    app,
    context: assembled.context,
    store: assembled.store,
    library: assembled.library,
    demoBlocks: assembled.demoBlocks,
    url,
    metricsUrl: metricsServer?.url ?? null,
    close: () => {
      // In-flight requests finish (and their plays commit) before the database closes.
      closing ??= (async () => {
        connections.startDrain();
        let cut = 0;
        const deadline = setTimeout(() => (cut = connections.cutAll()), config.limits.shutdownDrainSeconds * 1000);
        try {
          await app.close();
        } finally {
          clearTimeout(deadline);
        }
        await metricsServer?.close();
        await assembled.closeAfterApp();
        return { cut };
      })();
      return closing;
    },
  };
}
