import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Layers and what each may import: rules ← emission ← server; rules ← client. */
const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

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
    ['**/emission/**', '**/server/**', '**/client/**', 'node:*', 'pixi.js', 'gsap', 'fastify', 'better-sqlite3', 'pg'],
    'src/rules is pure: it imports nothing outside itself.',
  ),
  layer(
    ['src/common/**'],
    ['**/rules/**', '**/emission/**', '**/server/**', '**/client/**', 'node:*', 'pixi.js', 'gsap', 'fastify'],
    'src/common holds small pure helpers for every layer: it imports nothing.',
  ),
  layer(
    ['src/emission/**'],
    ['**/server/**', '**/client/**', 'pixi.js', 'gsap', 'fastify'],
    'src/emission imports only src/rules and Node.',
  ),
  layer(['src/server/**'], ['**/client/**', 'pixi.js', 'gsap'], 'src/server never imports the client.'),
  layer(
    ['src/client/**'],
    ['**/server/**', '**/emission/**', 'node:*', 'fastify', 'better-sqlite3', 'pg'],
    'src/client imports only src/rules, never the server.',
  ),
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
    'src/wallet is the wallet contract alone, shared by the game server and the operator wallet: it imports only Node (node:*).',
  ),
  layer(
    ['src/operator/**'],
    ['**/rules/**', '**/emission/**', '**/server/**', '**/client/**', '@fastify/*', 'pg', 'pixi.js', 'gsap', 'howler'],
    'src/operator (the reference operator wallet) imports only src/wallet, src/common, Node, fastify and better-sqlite3.',
  ),
  // The reference wallet is a service of its own: nothing else in src imports it. A rule of its own
  // (typescript-eslint's twin of no-restricted-imports), so that it adds to each layer's list above
  // instead of replacing it.
  {
    files: ['src/**'],
    ignores: ['src/operator/**'],
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
);
