/**
 * A demo portal on its own origin, hosting SPINCAKE in an iframe (examples/portal/):
 *
 *   PORTAL_SECRET=<32+ chars> npx tsx scripts/portal-demo.ts [--port 8090] [--game http://localhost:8080/]
 *        [--player demo-player] [--fund-cents 10000]
 *
 * It serves the example page and, at /launch.json, a fresh launch token for its player,
 * signed with PORTAL_SECRET by the server's own signing function (src/server/tokens.ts),
 * as a portal's back end would. Start the game server with the same secret and this
 * portal's origin (the command is printed on start). `--fund-cents` tops the player's
 * balance up through the game server's test routes (SPINCAKE_TEST_MODE=1 only): portal
 * players start at 0 € and a real portal's wallet is not part of this demo.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PORTAL_PLAYER_ID, signLaunchToken } from '../src/server/tokens.ts';

const EXAMPLE_DIR = path.resolve(import.meta.dirname, '..', 'examples', 'portal');
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/portal.js': { file: 'portal.js', type: 'text/javascript; charset=utf-8' },
  '/portal.css': { file: 'portal.css', type: 'text/css; charset=utf-8' },
};

/** Launch tokens are short-lived (the game's LAUNCH_TOKEN_MAX_SECONDS: 300) and used once. */
export const LAUNCH_TOKEN_TTL_SECONDS = 120;
const MIN_SECRET_LENGTH = 32;

export interface PortalDemoOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** The game's URL as the iframe opens it (query parameters such as ?lang=en kept). */
  gameUrl: string;
  portalSecret: string;
  playerId: string;
  /** Top the player's balance up to this many cents when it is lower (test-mode game servers only). */
  fundCents?: number | null;
}

export interface PortalDemo {
  /** http://host:port of the portal page. */
  url: string;
  origin: string;
  close(): Promise<void>;
}

export class PortalDemoError extends Error {}

function checkOptions(o: PortalDemoOptions): URL {
  if (o.portalSecret.length < MIN_SECRET_LENGTH) {
    throw new PortalDemoError(
      `PORTAL_SECRET must be at least ${MIN_SECRET_LENGTH} characters (the game server's rule)`,
    );
  }
  if (!PORTAL_PLAYER_ID.test(o.playerId)) {
    throw new PortalDemoError(`--player must be 1–64 letters, digits, _ or -, got "${o.playerId}"`);
  }
  let game: URL;
  try {
    game = new URL(o.gameUrl);
  } catch {
    throw new PortalDemoError(`--game must be a URL such as http://localhost:8080/, got "${o.gameUrl}"`);
  }
  if (game.protocol !== 'http:' && game.protocol !== 'https:') {
    throw new PortalDemoError(`--game must be an http(s) URL, got "${o.gameUrl}"`);
  }
  if (o.fundCents != null && (!Number.isSafeInteger(o.fundCents) || o.fundCents < 0)) {
    throw new PortalDemoError('--fund-cents must be a whole number of cents');
  }
  game.hash = '';
  return game;
}

/** The portal page's own CSP: its scripts and styles only, and frames from the game alone. */
export function portalCsp(gameOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `frame-src ${gameOrigin}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** What the demo's back end does before a launch: tops up a test player's balance. */
async function fund(game: URL, launchToken: string, cents: number): Promise<string | undefined> {
  const api = (p: string) => new URL(p, game.origin).href;
  const json = { 'content-type': 'application/json' };
  const session = await fetch(api('/api/session'), {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ launchToken }),
  });
  const opened = (await session.json()) as { token?: string; balanceCents?: number; error?: { message: string } };
  if (!session.ok || !opened.token)
    return `cannot open the player's session: ${opened.error?.message ?? session.status}`;
  if ((opened.balanceCents ?? 0) >= cents) return undefined;
  const topUp = await fetch(api('/api/test/balance'), {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${opened.token}` },
    body: JSON.stringify({ balanceCents: cents }),
  });
  if (topUp.status === 404) return 'cannot fund the player: the game server is not in test mode (SPINCAKE_TEST_MODE=1)';
  return topUp.ok ? undefined : `cannot fund the player: HTTP ${topUp.status}`;
}

export async function startPortalDemo(options: PortalDemoOptions): Promise<PortalDemo> {
  const game = checkOptions(options);
  const csp = portalCsp(game.origin);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://portal.invalid');
    const send = (status: number, type: string, body: string | Buffer) => {
      response.writeHead(status, {
        'content-type': type,
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      response.end(body);
    };
    if (request.method !== 'GET') return send(405, 'text/plain', 'GET only');
    if (url.pathname === '/launch.json') {
      const playerId = url.searchParams.get('player') ?? options.playerId;
      if (!PORTAL_PLAYER_ID.test(playerId)) {
        return send(400, 'application/json', JSON.stringify({ error: 'player: 1–64 letters, digits, _ or -' }));
      }
      const iat = Math.floor(Date.now() / 1000);
      const launch = () =>
        signLaunchToken({ playerId, iat, exp: iat + LAUNCH_TOKEN_TTL_SECONDS }, options.portalSecret);
      const launchToken = launch();
      // Each token opens one session: the funding opens its own, with a token of its own.
      const funding = options.fundCents != null ? fund(game, launch(), options.fundCents) : Promise.resolve(undefined);
      void funding
        .catch((error: unknown) => `cannot reach the game server at ${game.origin}: ${String(error)}`)
        .then((warning) =>
          send(200, 'application/json', JSON.stringify({ gameUrl: game.href, launchToken, playerId, warning })),
        );
      return;
    }
    const entry = FILES[url.pathname];
    if (!entry) return send(404, 'text/plain', 'not found');
    send(200, entry.type, fs.readFileSync(path.join(EXAMPLE_DIR, entry.file)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new PortalDemoError('the demo portal has no TCP address');
  const host = options.host ?? '127.0.0.1';
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    url: `${origin}/`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.PORTAL_DEMO_PORT ?? '8090' },
      host: { type: 'string', default: 'localhost' },
      game: { type: 'string', default: process.env.GAME_URL ?? 'http://localhost:8080/' },
      player: { type: 'string', default: 'demo-player' },
      'fund-cents': { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535)
    throw new PortalDemoError(`--port must be 0–65535, got "${values.port}"`);
  const fundRaw = values['fund-cents'];
  if (fundRaw !== undefined && !/^\d+$/.test(fundRaw)) throw new PortalDemoError('--fund-cents must be whole cents');
  const portalSecret = process.env.PORTAL_SECRET ?? '';
  if (!portalSecret) throw new PortalDemoError('set PORTAL_SECRET (the same 32+ characters as the game server’s)');
  const demo = await startPortalDemo({
    port,
    host: values.host,
    gameUrl: values.game,
    portalSecret,
    playerId: values.player,
    fundCents: fundRaw === undefined ? null : Number(fundRaw),
  });
  console.log(`demo portal: ${demo.url} (hosting ${values.game})`);
  console.log('start the game server with this portal allowed, e.g.:');
  console.log(`  PORTAL_SECRET='…same secret…' PORTAL_ORIGINS=${demo.origin} DEMO_MODE=off npm start`);
  console.log('portal players start at 0 €: to give the demo player money, run the game server with');
  console.log('SPINCAKE_TEST_MODE=1 (never for a real sale) and this command with --fund-cents 10000');
  const stop = () => void demo.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`portal-demo: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  });
}
