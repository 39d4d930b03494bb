/**
 * The README's layout table, "may import" column, as data: each room, where it is, and what
 * it may import (rooms by name, packages by name; `node:*` is Node's own modules). Anything
 * else is refused: eslint.config.js turns this table into eslint-plugin-boundaries' policies
 * (default disallow), and eslint.config.test.ts lists a forbidden and an allowed import per
 * room. A room inside another (server/store inside server) is its own: it may import only
 * what its own line says. A room is a folder (`path`) or one file (`file`): a one-file room
 * is imported only by the rooms that name it. To rename or move a room, change its `path`
 * or `file`, and its name where other rooms name it.
 *
 * `mayImportTypes`: rooms imported with `import type` only; `mayLoad`: rooms loaded with import() only.
 */
export const NODE = 'node:*';
export const ROOMS = {
  rules: { path: 'src/rules', mayImport: [] },
  common: { path: 'src/common', mayImport: [] },
  'contract/errorCodes': { file: 'src/contract/errorCodes.ts', mayImport: [] },
  contract: { path: 'src/contract', mayImport: ['rules', 'contract/errorCodes', '@sinclair/typebox'] },
  proofs: { path: 'src/proofs', mayImport: ['rules'] },
  'transparency/nodeSha256': { file: 'src/transparency/nodeSha256.ts', mayImport: ['node:crypto'] },
  transparency: { path: 'src/transparency', mayImport: ['proofs', 'rules'] },
  emission: { path: 'src/emission', mayImport: ['rules', 'proofs', 'common', NODE] },
  verify: {
    path: 'src/verify',
    mayImport: ['proofs', 'transparency', 'transparency/nodeSha256', 'emission', 'rules', 'common', NODE],
  },
  // The server: its composition root (main.ts loads test mode, by import()), its root files, its rooms.
  'server/main': {
    file: 'src/server/main.ts',
    mayImport: ['server/entry', 'server', 'server/http', 'server/security', 'server/sessions', NODE],
    mayLoad: ['server/testMode'],
  },
  'server/entry': {
    file: ['src/server/app.ts', 'src/server/server.ts'],
    mayImport: [
      'server/ops',
      'server/salesWindow',
      'server',
      'server/blocks',
      'server/http',
      'server/metrics',
      'server/routes',
      'server/sale',
      'server/security',
      'server/sessions',
      'server/store',
      'server/transparency',
      'server/operatorWallet',
      'contract',
      'fastify',
      '@fastify/*',
      NODE,
    ],
  },
  // Article 1's sales window: the configured calendar and the operator's open/close.
  'server/salesWindow': { path: 'src/server/salesWindow', mayImport: ['server', 'server/store', 'contract'] },
  // The operator's commands (npm run ops) and the reports they print: ledger audit, sales report, supply.
  'server/ops': {
    path: 'src/server/ops',
    mayImport: [
      'server',
      'server/blocks',
      'server/operatorWallet',
      'server/sessions',
      'server/store',
      'server/store/sqlite',
      'server/transparency',
      'emission',
      'rules',
      'common',
      NODE,
    ],
  },
  'server/seededRandom': { file: 'src/server/seededRandom.ts', mayImport: ['common', NODE] },
  'server/store/sqlite': {
    path: 'src/server/store/sqlite',
    mayImport: ['server/store', 'server', 'rules', 'contract', 'common', 'durability', 'better-sqlite3', NODE],
  },
  'server/store/postgres': {
    path: 'src/server/store/postgres',
    mayImport: ['server/store', 'rules', 'contract', 'pg', NODE],
  },
  'server/store': {
    path: 'src/server/store',
    mayImport: ['server/store/sqlite', 'server/store/postgres', 'server', 'rules', 'contract', 'emission', NODE],
  },
  'server/blocks': { path: 'src/server/blocks', mayImport: ['emission', 'rules', 'server/store', NODE] },
  'server/sale': {
    path: 'src/server/sale',
    mayImport: ['server/salesWindow', 'server/store', 'server/operatorWallet', 'server', 'rules'],
  },
  'server/operatorWallet': {
    path: 'src/server/operatorWallet',
    mayImport: ['server/store', 'walletApi', 'server', 'rules', 'contract', 'common', NODE],
  },
  'server/sessions': { path: 'src/server/sessions', mayImport: ['server', 'better-sqlite3', 'pg', NODE] },
  'server/security': { path: 'src/server/security', mayImport: ['server', 'server/sessions', NODE] },
  'server/metrics': {
    path: 'src/server/metrics',
    mayImport: [
      'server/ops',
      'server/store',
      'server',
      'contract',
      'contract/errorCodes',
      'rules',
      'fastify',
      'prom-client',
      NODE,
    ],
  },
  'server/http': {
    path: 'src/server/http',
    mayImport: [
      'server/salesWindow',
      'contract',
      'rules',
      'server/store',
      'server',
      'server/blocks',
      'server/sale',
      'server/sessions',
      'server/transparency',
      'server/operatorWallet',
      'fastify',
      '@fastify/*',
      '@sinclair/typebox',
      'ioredis',
      NODE,
    ],
  },
  'server/routes': {
    path: 'src/server/routes',
    mayImport: ['server/http', 'contract', 'rules', 'server/store', 'proofs', 'server', 'fastify'],
  },
  'server/transparency': {
    path: 'src/server/transparency',
    mayImport: [
      'transparency',
      'transparency/nodeSha256',
      'proofs',
      'server/store',
      'server/store/sqlite',
      'server/store/postgres',
      'server/blocks',
      'server/http',
      'server',
      'contract',
      'rules',
      'better-sqlite3',
      'pg',
      NODE,
    ],
  },
  // Plugged in from outside (main.ts, the test harness): anything in the server.
  'server/testMode': {
    path: 'src/server/testMode',
    mayImport: [
      'server/salesWindow',
      'server',
      'server/http',
      'server/store',
      'server/seededRandom',
      'contract',
      'emission',
      'rules',
      '@sinclair/typebox',
    ],
  },
  // The server's test helpers: they start servers, with test mode, and drive the reference wallet's admin client.
  'server/testing': {
    path: 'src/server/testing',
    mayImport: [
      'server',
      'server/entry',
      'server/testMode',
      'server/blocks',
      'server/store',
      'server/store/sqlite',
      'server/store/postgres',
      'referenceWallet/adminClient',
      'contract',
      'emission',
      'rules',
      'fastify',
      'better-sqlite3',
      'pg',
      'ioredis',
      'vitest',
      NODE,
    ],
  },
  server: {
    path: 'src/server',
    mayImport: [
      'server/blocks',
      'server/sessions',
      'server/store',
      'server/store/sqlite',
      'server/transparency',
      'server/operatorWallet',
      'rules',
      'contract',
      'contract/errorCodes',
      'emission',
      'common',
      'walletApi',
      NODE,
    ],
  },
  // The browser: the entry loads test mode by import(); the game is pure (views implement its interfaces).
  'client/main': {
    file: 'src/client/main.ts',
    mayImport: ['client', 'client/game', 'common', 'rules', 'contract/errorCodes', 'pixi.js', 'gsap', 'howler'],
    mayLoad: ['client/testMode'],
    mayImportTypes: ['contract'],
  },
  'client/testMode': {
    path: 'src/client/testMode',
    mayImport: ['client', 'client/game', 'common', 'rules', 'contract/errorCodes', 'pixi.js', 'gsap', 'howler'],
    mayImportTypes: ['contract'],
  },
  'client/game': { path: 'src/client/game', mayImport: ['client', 'rules', 'common'], mayImportTypes: ['contract'] },
  client: {
    path: 'src/client',
    mayImport: [
      'client/game',
      'rules',
      'common',
      'proofs',
      'transparency',
      'contract/errorCodes',
      'pixi.js',
      'pixi.js/*',
      'gsap',
      'howler',
      // The ticket check's SHA-256: a maintained one, not the server's tuned one (issue 34).
      '@noble/hashes',
    ],
    mayImportTypes: ['contract'],
  },
  // The operator wallet's contract as code, its reference service (reached over HTTP), and the WAL they share.
  walletApi: { path: 'src/walletApi', mayImport: ['undici', NODE] },
  'referenceWallet/adminClient': {
    file: 'src/referenceWallet/adminClient.ts',
    mayImport: ['referenceWallet', 'walletApi', NODE],
  },
  referenceWallet: {
    path: 'src/referenceWallet',
    mayImport: [
      'referenceWallet/adminClient',
      'walletApi',
      'common',
      'durability',
      'fastify',
      'better-sqlite3',
      'prom-client',
      NODE,
    ],
  },
  durability: { path: 'src/durability', mayImport: ['better-sqlite3', NODE] },
};

/** What a test file may import besides its room's list: the test tools, Node, and (in the server) the server's rooms and helpers. */
// The browser's SHA-256 (@noble/hashes) is held to node:crypto's by the proofs' and the log's tests.
export const TEST_TOOLS = ['vitest', 'fast-check', '@noble/hashes', NODE];
export const SERVER_TESTS_MAY_IMPORT = [
  ...Object.keys(ROOMS).filter((room) => room.startsWith('server') && room !== 'server/testMode'),
  'contract',
  'contract/errorCodes',
  'emission',
  'proofs',
  'rules',
  'common',
  'transparency',
  'transparency/nodeSha256',
  'verify',
  'walletApi',
  'fastify',
  '@sinclair/typebox',
  'better-sqlite3',
  'pg',
];
