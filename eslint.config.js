import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

/**
 * Layers and what each may import: rules ← contract ← server; rules ← emission ← server;
 * rules ← proofs ← emission, server, verify, client; proofs ← transparency ← server, verify, client;
 * rules and contract (types, and errorCodes.ts as a value) ← client. Inside the server,
 * rooms: blocks (the block files), http (request context, authentication, errors,
 * headers, views), routes (the API), testMode (plugged in from outside; main.ts and the
 * test harness load it). And no import circle anywhere in src/ (import-x/no-cycle below).
 *
 * A later block that sets the same rule for the same file replaces the earlier one's
 * options: a room inside src/server therefore repeats the server's own bans (SERVER).
 */
const layer = (files, forbidden, message, ignores = []) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

/** What the pure rooms (rules, common, contract) never import: the other layers, Node, views, databases. */
const OUTSIDE_PURE = [
  '**/emission/**',
  '**/server/**',
  '**/client/**',
  'node:*',
  'pixi.js',
  'gsap',
  'fastify',
  'better-sqlite3',
  'pg',
];
const CLIENT_FORBIDDEN = ['**/server/**', '**/emission/**', 'node:*', 'fastify', 'better-sqlite3', 'pg'];
const CLIENT_MESSAGE = 'src/client imports only src/rules, src/common and src/contract, never the server.';
const SERVER = ['**/client/**', 'pixi.js', 'gsap'];
const SERVER_MESSAGE =
  'src/server never imports the client; ' +
  'test mode (src/server/testMode) is loaded only by main.ts (dynamic import) and the test harness.';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', '.tmp', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  layer(
    ['src/rules/**'],
    [...OUTSIDE_PURE, '**/contract/**', '**/proofs/**', '@sinclair/typebox'],
    'src/rules is pure: it imports nothing outside itself.',
  ),
  layer(
    ['src/common/**'],
    [...OUTSIDE_PURE, '**/rules/**', '**/contract/**', '**/proofs/**'],
    'src/common holds small pure helpers for every layer: it imports nothing.',
  ),
  layer(
    ['src/contract/**'],
    [...OUTSIDE_PURE, '**/common/**', '**/proofs/**'],
    'src/contract (the HTTP API, defined once) imports only src/rules and @sinclair/typebox.',
  ),
  layer(
    ['src/proofs/**'],
    [...OUTSIDE_PURE, '**/common/**', '**/contract/**', '**/verify/**', '@sinclair/typebox'],
    'src/proofs (commitments and ticket proofs) is pure, shared by the server, the verify command and the browser: it imports only src/rules.',
  ),
  layer(
    ['src/transparency/**'],
    [...OUTSIDE_PURE, '**/common/**', '**/contract/**', '**/verify/**', '@sinclair/typebox'],
    'src/transparency (the log’s tree, entries, heads, a ticket’s log checks) is pure, shared by the server, the verify command and the browser: it imports only src/proofs and src/rules; the SHA-256 is passed in.',
    ['src/transparency/nodeSha256.ts', 'src/transparency/**/*.test.ts'],
  ),
  layer(
    ['src/transparency/nodeSha256.ts'],
    [...OUTSIDE_PURE.filter((group) => group !== 'node:*'), '**/common/**', '**/contract/**', '**/verify/**'],
    'src/transparency/nodeSha256.ts is node:crypto’s SHA-256 for the server and the command line, nothing else.',
  ),
  layer(
    ['src/verify/**'],
    ['**/server/**', '**/client/**', '**/contract/**', 'pixi.js', 'gsap', 'fastify', 'better-sqlite3', 'pg'],
    'src/verify (npm run verify) needs no server: it imports only src/proofs, src/transparency, src/emission, src/rules and Node.',
  ),
  layer(
    ['src/contract/errorCodes.ts'],
    ['**'],
    'src/contract/errorCodes.ts is imported by the browser as a value: it imports nothing (no schema library).',
  ),
  layer(
    ['src/emission/**'],
    ['**/server/**', '**/client/**', '**/contract/**', 'pixi.js', 'gsap', 'fastify'],
    'src/emission imports only src/rules and Node.',
  ),
  layer(['src/server/**'], [...SERVER, '**/testMode/**'], SERVER_MESSAGE, [
    'src/server/testMode/**',
    'src/server/testing/**',
  ]),
  layer(['src/server/testMode/**', 'src/server/testing/**'], SERVER, SERVER_MESSAGE),
  layer(
    ['src/server/blocks/**'],
    [
      ...SERVER,
      '**/testMode/**',
      '**/http/**',
      '**/routes/**',
      '**/contract/**',
      '**/app.ts',
      '**/server.ts',
      '**/main.ts',
    ],
    'src/server/blocks (the block files on sale) imports only src/emission, src/rules and the store types.',
  ),
  layer(
    ['src/server/store/**'],
    [
      ...SERVER,
      '**/testMode/**',
      '**/http/**',
      '**/routes/**',
      '**/metrics/**',
      '**/wallet/**',
      '**/blocks/**',
      'prom-client',
      'fastify',
      '**/app.ts',
      '**/server.ts',
      '**/main.ts',
    ],
    'src/server/store knows no metrics library, HTTP or routes: it reports play batches through PlayBatchObserver.',
    ['src/server/store/**/*.test.ts'],
  ),
  layer(
    ['src/server/metrics/**'],
    [...SERVER, '**/testMode/**', '**/routes/**', '**/app.ts', '**/server.ts', '**/main.ts'],
    'src/server/metrics (Prometheus) sees the store types and fastify; the app plugs it in.',
  ),
  layer(
    ['src/server/http/**'],
    [...SERVER, '**/testMode/**', '**/routes/**', '**/emission/**', '**/app.ts', '**/server.ts', '**/main.ts'],
    'src/server/http (request context, authentication, errors, headers, views) is below the routes and the app.',
  ),
  layer(
    ['src/server/wallet/**'],
    [
      ...SERVER,
      '**/testMode/**',
      '**/routes/**',
      '**/http/**',
      '**/emission/**',
      '**/app.ts',
      '**/server.ts',
      '**/main.ts',
    ],
    'src/server/wallet (portal players’ money at the operator) is below the routes: the store, the wallet contract, config.',
  ),
  layer(
    ['src/server/transparency/**'],
    [...SERVER, '**/testMode/**', '**/routes/**', '**/app.ts', '**/server.ts', '**/main.ts'],
    'src/server/transparency (the log’s storage, signing key, head scheduler, publication gate and routes) is plugged in by the app and server: it never imports them.',
  ),
  layer(
    ['src/server/sessions/**'],
    [
      ...SERVER,
      '**/testMode/**',
      '**/routes/**',
      '**/http/**',
      '**/store/**',
      '**/emission/**',
      '**/app.ts',
      '**/server.ts',
      '**/main.ts',
    ],
    'src/server/sessions (session keys, logouts, idle times, used launch tokens) has its own tables: never the store, HTTP or routes.',
    ['src/server/sessions/**/*.test.ts'],
  ),
  layer(
    ['src/server/security/**'],
    [
      ...SERVER,
      '**/testMode/**',
      '**/routes/**',
      '**/http/**',
      '**/store/**',
      '**/app.ts',
      '**/server.ts',
      '**/main.ts',
    ],
    'src/server/security (the production profile) reads the configuration and the data files, not the store or HTTP.',
    ['src/server/security/**/*.test.ts'],
  ),
  layer(
    ['src/server/sale/**'],
    [
      ...SERVER,
      '**/testMode/**',
      '**/routes/**',
      '**/http/**',
      '**/emission/**',
      '**/blocks/**',
      '**/metrics/**',
      'fastify',
      '**/app.ts',
      '**/server.ts',
      '**/main.ts',
    ],
    'src/server/sale (the one sale path: purse and pool chosen once, roots awaited) is below the routes: the store, the wallet, the sales window.',
  ),
  layer(
    ['src/server/routes/**'],
    [...SERVER, '**/testMode/**', '**/emission/**', '**/seededRandom.ts', '**/app.ts', '**/server.ts', '**/main.ts'],
    'src/server/routes are the API as sold: no test fixtures, no emission, and never the app that registers them.',
  ),
  {
    // no-restricted-imports does not see import(): only the two entry points load test mode that way.
    files: ['src/**'],
    ignores: ['src/server/main.ts', 'src/client/main.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/testMode/]',
          message: 'test mode is loaded only by the entry points (src/server/main.ts, src/client/main.ts).',
        },
      ],
    },
  },
  layer(['src/client/**'], CLIENT_FORBIDDEN, CLIENT_MESSAGE),
  layer(
    ['src/client/**'],
    [...CLIENT_FORBIDDEN, '**/testMode/**'],
    CLIENT_MESSAGE + ' Only main.ts loads the test mode (testMode/), by import().',
    ['src/client/main.ts'],
  ),
  layer(
    ['src/client/game/**'],
    [...CLIENT_FORBIDDEN, '**/testMode/**', 'pixi.js', 'pixi.js/*', 'gsap', 'howler'],
    'src/client/game is pure (no Pixi, GSAP or views; never the server or the test mode): views implement its interfaces.',
  ),
  {
    files: ['src/client/game/**'],
    ignores: ['src/client/game/**/*.test.ts'],
    rules: { 'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'requestAnimationFrame'] },
  },
  layer(
    ['src/wallet/**'],
    [
      '../**',
      '**/rules/**',
      '**/common/**',
      '**/emission/**',
      '**/server/**',
      '**/client/**',
      '**/operator/**',
      'fastify',
      '@fastify/*',
      'better-sqlite3',
      'pg',
      'pixi.js',
      'gsap',
      'howler',
    ],
    'src/wallet is the wallet contract alone, shared by the game server and the operator wallet: it imports only Node (node:*) and undici.',
  ),
  layer(
    ['src/durability/**'],
    ['../**', 'fastify', '@fastify/*', 'pg', 'pixi.js', 'gsap', 'howler'],
    'src/durability (group fsync and checkpoints of a SQLite WAL) is shared by the game’s SQLite store and the reference wallet: it imports only Node and better-sqlite3.',
  ),
  layer(
    ['src/operator/**'],
    ['**/rules/**', '**/emission/**', '**/server/**', '**/client/**', '@fastify/*', 'pg', 'pixi.js', 'gsap', 'howler'],
    'src/operator (the reference operator wallet) imports only src/wallet, src/common, src/durability, Node, fastify, better-sqlite3 and prom-client.',
  ),
  {
    // The reference wallet is a service of its own: nothing else in src imports it. A rule of its own
    // (typescript-eslint's twin of no-restricted-imports), so that it adds to each layer's list instead
    // of replacing it; the client's block below repeats it with the client's own patterns.
    files: ['src/**'],
    ignores: ['src/operator/**', 'src/client/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/operator/**', '**/operator'],
              message: 'src/operator is the reference operator wallet, a service of its own: talk to it over HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    // The game server's test helpers drive the reference wallet they spawn through its signed admin client.
    files: ['src/server/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Not '**/operator' here: a directory excluded as such cannot have a file re-included.
              group: ['**/operator/**', '!**/operator/adminClient.ts'],
              message: 'src/operator is a service of its own: spawn it, and drive it with its adminClient.ts only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract's schemas stay out of the browser bundle: types only, and the error codes.
    files: ['src/client/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/contract/api.ts'],
              allowTypeImports: true,
              message: 'the client imports src/contract/api.ts with `import type` only (values: errorCodes.ts).',
            },
            { group: ['@sinclair/typebox'], message: 'the schema library stays on the server.' },
            {
              group: ['**/operator/**', '**/operator'],
              message: 'src/operator is the reference operator wallet, a service of its own: talk to it over HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    // No import circle anywhere in src/ (type-only and dynamic imports count too).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
