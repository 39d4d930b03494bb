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
);
