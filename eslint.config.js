import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import { NODE, ROOMS, SERVER_TESTS_MAY_IMPORT, TEST_TOOLS } from './eslint.rooms.js';

/** eslint.rooms.js's table as eslint-plugin-boundaries' elements, file categories and policies. */
const isRoom = (name) => Object.hasOwn(ROOMS, name);
const isFileRoom = (name) => ROOMS[name].file !== undefined;
const roomSelector = (name) => (isFileRoom(name) ? { file: { categories: name } } : { element: { type: name } });
const toPackages = (names) => [
  ...(names.some((n) => n !== NODE)
    ? [{ module: { origin: 'external', source: names.filter((n) => n !== NODE) } }]
    : []),
  ...(names.includes(NODE) ? [{ module: { origin: 'core' } }] : []),
  ...names.filter((n) => n.startsWith('node:') && n !== NODE).map((n) => ({ module: { origin: 'core', source: n } })),
];
const allowTo = (names) => [...names.filter(isRoom).map(roomSelector), ...toPackages(names.filter((n) => !isRoom(n)))];

// A folder room is an element; a one-file room is a file category (it is also part of its folder's element).
const boundaryElements = Object.entries(ROOMS)
  .filter(([, room]) => room.path !== undefined)
  .map(([type, { path }]) => ({ type, pattern: path }));
const boundaryFiles = [
  { category: 'test', pattern: '**/*.test.ts' },
  ...Object.entries(ROOMS)
    .filter(([, room]) => room.file !== undefined)
    .flatMap(([category, { file }]) => [file].flat().map((pattern) => ({ category, pattern }))),
];

const roomPolicies = (names) =>
  names.flatMap((name) => {
    const { mayImport, mayImportTypes = [], mayLoad = [] } = ROOMS[name];
    return [
      ...(mayLoad.length
        ? [{ from: roomSelector(name), allow: { to: allowTo(mayLoad), dependency: { nodeKind: 'dynamic-import' } } }]
        : []),
      ...(mayImport.length ? [{ from: roomSelector(name), allow: { to: allowTo(mayImport) } }] : []),
      ...(mayImportTypes.length
        ? [{ from: roomSelector(name), allow: { to: allowTo(mayImportTypes), dependency: { kind: 'type' } } }]
        : []),
    ];
  });
const fileRooms = Object.keys(ROOMS).filter(isFileRoom);
// The last policy that matches decides: a one-file room is closed to everyone (its folder's
// importers included) and its folder's list is not its own; then its own list, and the rooms
// that name it.
const boundaryPolicies = [
  ...roomPolicies(Object.keys(ROOMS).filter((name) => !isFileRoom(name))),
  ...fileRooms.map((name) => ({ disallow: { to: roomSelector(name) } })),
  ...fileRooms.map((name) => ({ from: roomSelector(name), disallow: { to: { module: { origin: '*' } } } })),
  ...roomPolicies(fileRooms),
  ...Object.keys(ROOMS).flatMap((name) => {
    const opened = fileRooms.filter((file) => ROOMS[name].mayImport.includes(file));
    return opened.length ? [{ from: roomSelector(name), allow: { to: opened.map(roomSelector) } }] : [];
  }),
];

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
  {
    // The rooms' table (eslint.rooms.js): every import in src/ (static, dynamic, re-export), local or a package.
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': boundaryElements,
      'boundaries/files': boundaryFiles,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          checkAllOrigins: true,
          message:
            'this import crosses a room boundary: see the "may import" column of the README layout table (ROOMS in eslint.rooms.js).',
          policies: [
            ...boundaryPolicies,
            { from: { file: { categories: 'test' } }, allow: { to: toPackages(TEST_TOOLS) } },
            {
              from: [{ element: { type: 'server{,/**}' }, file: { categories: 'test' } }],
              allow: { to: allowTo(SERVER_TESTS_MAY_IMPORT) },
            },
          ],
        },
      ],
    },
  },
  {
    // The game is pure: no DOM (views implement its interfaces).
    files: ['src/client/game/**'],
    ignores: ['src/client/game/**/*.test.ts'],
    rules: { 'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'requestAnimationFrame'] },
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
