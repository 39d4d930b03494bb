import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * Layers and what each may import: rules ← emission ← server; rules ← client. A later
 * block's list replaces an earlier one's for the files both cover, so a narrower block
 * repeats the wider one's entries.
 */
const layer = (files, forbidden, message, ignores = []) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

const CLIENT_FORBIDDEN = ['**/server/**', '**/emission/**', 'node:*', 'fastify', 'better-sqlite3', 'pg'];

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
  layer(['src/client/**'], CLIENT_FORBIDDEN, 'src/client imports only src/rules, never the server.'),
  layer(
    ['src/client/**'],
    [...CLIENT_FORBIDDEN, '**/testMode/**'],
    'src/client imports only src/rules, never the server; only main.ts loads the test mode (testMode/), by import().',
    ['src/client/main.ts'],
  ),
  {
    // no-restricted-imports does not see import(): the same rule for it.
    files: ['src/client/**'],
    ignores: ['src/client/main.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/testMode/]',
          message: 'Only main.ts loads the test mode (testMode/).',
        },
      ],
    },
  },
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
);
