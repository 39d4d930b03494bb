import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries (README's layout table, eslint.config.js) as cases: one forbidden
 * import per rule and room, each expected reported, and imports the table allows, each
 * expected clean. Linted in memory as a file at `from` (the sources are never written).
 */
interface Case {
  from: string;
  source: string;
  /** `import type` instead of a value import. */
  typeOnly?: boolean;
  /** A dynamic import() instead of a static one. */
  dynamic?: boolean;
}

const forbidden: Case[] = [
  { from: 'src/rules/x.ts', source: '../contract/api.ts' },
  { from: 'src/rules/x.ts', source: 'node:fs' },
  { from: 'src/rules/x.ts', source: '@sinclair/typebox' },
  { from: 'src/common/x.ts', source: '../rules/index.ts' },
  { from: 'src/common/x.ts', source: 'node:crypto' },
  { from: 'src/contract/x.ts', source: '../common/uuidV7.ts' },
  { from: 'src/contract/x.ts', source: '../proofs/index.ts' },
  { from: 'src/contract/x.ts', source: '../server/app.ts' },
  { from: 'src/contract/errorCodes.ts', source: '../rules/index.ts' },
  { from: 'src/contract/errorCodes.ts', source: '@sinclair/typebox' },
  { from: 'src/proofs/x.ts', source: '../contract/api.ts' },
  { from: 'src/proofs/x.ts', source: '../verify/cli.ts' },
  { from: 'src/proofs/x.ts', source: 'node:crypto' },
  { from: 'src/transparency/x.ts', source: 'node:crypto' },
  { from: 'src/transparency/x.ts', source: '../contract/api.ts' },
  { from: 'src/transparency/x.ts', source: '../common/uuidV7.ts' },
  { from: 'src/transparency/nodeSha256.ts', source: '../contract/api.ts' },
  { from: 'src/verify/x.ts', source: '../server/app.ts' },
  { from: 'src/verify/x.ts', source: '../contract/api.ts' },
  { from: 'src/verify/x.ts', source: 'fastify' },
  { from: 'src/emission/x.ts', source: '../contract/api.ts' },
  { from: 'src/emission/x.ts', source: '../server/app.ts' },
  { from: 'src/emission/x.ts', source: 'fastify' },
  { from: 'src/server/app.ts', source: '../client/main.ts' },
  { from: 'src/server/app.ts', source: 'pixi.js' },
  { from: 'src/server/app.ts', source: './testMode/index.ts' },
  { from: 'src/server/app.ts', source: './testMode/index.ts', dynamic: true },
  { from: 'src/server/app.ts', source: '../referenceWallet/ledger.ts' },
  { from: 'src/server/main.ts', source: './testMode/index.ts' },
  { from: 'src/server/testing/x.ts', source: '../../referenceWallet/ledger.ts' },
  { from: 'src/server/testing/x.ts', source: '../../client/main.ts' },
  { from: 'src/server/testMode/x.ts', source: 'gsap' },
  { from: 'src/server/blocks/x.ts', source: '../http/errors.ts' },
  { from: 'src/server/blocks/x.ts', source: '../../contract/api.ts' },
  { from: 'src/server/blocks/x.ts', source: '../app.ts' },
  { from: 'src/server/store/x.ts', source: '../metrics/serverMetrics.ts' },
  { from: 'src/server/store/x.ts', source: '../http/errors.ts' },
  { from: 'src/server/store/x.ts', source: '../routes/plays.ts' },
  { from: 'src/server/store/x.ts', source: '../operatorWallet/operatorWallet.ts' },
  { from: 'src/server/store/x.ts', source: '../blocks/blockLibrary.ts' },
  { from: 'src/server/store/x.ts', source: 'prom-client' },
  { from: 'src/server/store/x.ts', source: 'fastify' },
  { from: 'src/server/store/sqlite/x.ts', source: '../../server.ts' },
  { from: 'src/server/metrics/x.ts', source: '../routes/plays.ts' },
  { from: 'src/server/metrics/x.ts', source: '../app.ts' },
  { from: 'src/server/http/x.ts', source: '../routes/plays.ts' },
  { from: 'src/server/http/x.ts', source: '../../emission/index.ts' },
  { from: 'src/server/http/x.ts', source: '../main.ts' },
  { from: 'src/server/operatorWallet/x.ts', source: '../http/errors.ts' },
  { from: 'src/server/operatorWallet/x.ts', source: '../routes/plays.ts' },
  { from: 'src/server/operatorWallet/x.ts', source: '../../emission/index.ts' },
  { from: 'src/server/transparency/x.ts', source: '../routes/plays.ts' },
  { from: 'src/server/transparency/x.ts', source: '../app.ts' },
  { from: 'src/server/sessions/x.ts', source: '../store/types.ts' },
  { from: 'src/server/sessions/x.ts', source: '../http/errors.ts' },
  { from: 'src/server/security/x.ts', source: '../store/types.ts' },
  { from: 'src/server/security/x.ts', source: '../routes/plays.ts' },
  { from: 'src/server/sale/x.ts', source: '../blocks/blockLibrary.ts' },
  { from: 'src/server/sale/x.ts', source: '../metrics/serverMetrics.ts' },
  { from: 'src/server/sale/x.ts', source: '../http/errors.ts' },
  { from: 'src/server/sale/x.ts', source: '../../emission/index.ts' },
  { from: 'src/server/sale/x.ts', source: 'fastify' },
  { from: 'src/server/routes/x.ts', source: '../../emission/index.ts' },
  { from: 'src/server/routes/x.ts', source: '../seededRandom.ts' },
  { from: 'src/server/routes/x.ts', source: '../app.ts' },
  { from: 'src/server/routes/x.ts', source: '../testMode/index.ts' },
  { from: 'src/client/x.ts', source: '../server/app.ts' },
  { from: 'src/client/x.ts', source: '../emission/index.ts' },
  { from: 'src/client/x.ts', source: 'node:fs' },
  { from: 'src/client/x.ts', source: 'fastify' },
  { from: 'src/client/x.ts', source: './testMode/index.ts' },
  { from: 'src/client/x.ts', source: './testMode/index.ts', dynamic: true },
  { from: 'src/client/x.ts', source: '../contract/api.ts' },
  { from: 'src/client/x.ts', source: '@sinclair/typebox' },
  { from: 'src/client/x.ts', source: '../referenceWallet/ledger.ts' },
  { from: 'src/client/game/x.ts', source: 'pixi.js' },
  { from: 'src/client/game/x.ts', source: 'gsap' },
  { from: 'src/client/game/x.ts', source: 'howler' },
  { from: 'src/client/game/x.ts', source: '../testMode/index.ts' },
  { from: 'src/walletApi/x.ts', source: '../rules/index.ts' },
  { from: 'src/walletApi/x.ts', source: '../common/uuidV7.ts' },
  { from: 'src/walletApi/x.ts', source: '../referenceWallet/ledger.ts' },
  { from: 'src/walletApi/x.ts', source: 'fastify' },
  { from: 'src/durability/x.ts', source: '../rules/index.ts' },
  { from: 'src/durability/x.ts', source: 'pg' },
  { from: 'src/durability/x.ts', source: 'fastify' },
  { from: 'src/referenceWallet/x.ts', source: '../rules/index.ts' },
  { from: 'src/referenceWallet/x.ts', source: '../server/app.ts' },
  { from: 'src/referenceWallet/x.ts', source: '../client/main.ts' },
  { from: 'src/referenceWallet/x.ts', source: '@fastify/rate-limit' },
  { from: 'src/referenceWallet/x.ts', source: 'pg' },
  // Caught by the table only (the layered no-restricted-imports blocks let these through).
  { from: 'src/rules/x.ts', source: '../common/uuidV7.ts' },
  { from: 'src/server/sale/x.ts', source: '../sessions/sessionRegistry.ts' },
  { from: 'src/server/store/x.ts', source: '../sessions/sessionRegistry.ts' },
  { from: 'src/server/salesWindow/x.ts', source: '../routes/plays.ts' },
  { from: 'src/server/salesWindow/x.ts', source: 'node:fs' },
  { from: 'src/server/ops/x.ts', source: '../routes/plays.ts' },
  { from: 'src/server/ops/x.ts', source: '../../client/main.ts' },
  { from: 'src/server/store/x.ts', source: '../ops/ledgerAudit.ts' },
];

const allowed: Case[] = [
  { from: 'src/contract/x.ts', source: '../rules/index.ts' },
  { from: 'src/contract/x.ts', source: '@sinclair/typebox' },
  { from: 'src/proofs/x.ts', source: '../rules/index.ts' },
  { from: 'src/transparency/x.ts', source: '../proofs/index.ts' },
  { from: 'src/transparency/nodeSha256.ts', source: 'node:crypto' },
  { from: 'src/verify/x.ts', source: '../emission/index.ts' },
  { from: 'src/verify/x.ts', source: '../transparency/nodeSha256.ts' },
  { from: 'src/emission/x.ts', source: '../proofs/index.ts' },
  { from: 'src/server/app.ts', source: '../contract/api.ts' },
  { from: 'src/server/main.ts', source: './testMode/index.ts', dynamic: true },
  { from: 'src/server/testing/x.ts', source: '../testMode/index.ts' },
  { from: 'src/server/testing/x.ts', source: '../../referenceWallet/adminClient.ts' },
  { from: 'src/server/routes/x.ts', source: '../http/errors.ts' },
  { from: 'src/server/routes/x.ts', source: '../../contract/api.ts' },
  { from: 'src/server/routes/x.ts', source: '../store/types.ts' },
  { from: 'src/server/sale/x.ts', source: '../store/types.ts' },
  { from: 'src/server/blocks/x.ts', source: '../../emission/index.ts' },
  { from: 'src/client/x.ts', source: '../contract/api.ts', typeOnly: true },
  { from: 'src/client/x.ts', source: '../contract/errorCodes.ts' },
  { from: 'src/client/x.ts', source: 'pixi.js' },
  { from: 'src/client/main.ts', source: './testMode/index.ts', dynamic: true },
  { from: 'src/client/game/x.ts', source: '../../rules/index.ts' },
  { from: 'src/walletApi/x.ts', source: 'undici' },
  { from: 'src/durability/x.ts', source: 'better-sqlite3' },
  { from: 'src/referenceWallet/x.ts', source: '../walletApi/contract.ts' },
  { from: 'src/referenceWallet/x.ts', source: '../common/uuidV7.ts' },
  { from: 'src/server/salesWindow/x.ts', source: '../config.ts' },
  { from: 'src/server/ops/x.ts', source: '../transparency/openLog.ts' },
  { from: 'src/server/ops/x.ts', source: '../store/openStore.ts' },
];

function sourceOf({ source, typeOnly, dynamic }: Case): string {
  if (dynamic) return `export const loaded = () => import('${source}');\n`;
  if (typeOnly) return `import type * as imported from '${source}';\nexport type Imported = typeof imported;\n`;
  return `import * as imported from '${source}';\nexport const value = imported;\n`;
}

const eslint = new ESLint();

/** What the import rules report on a case (other rules, e.g. a cycle through the real file, aside). */
async function importProblems(c: Case): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(sourceOf(c), { filePath: c.from });
  return result!.messages.filter(
    (m) => m.ruleId === null || /restricted-(imports|syntax)|^boundaries\//.test(m.ruleId),
  );
}

const label = (c: Case) => `${c.from} → ${c.dynamic ? 'import()' : c.typeOnly ? 'import type' : 'import'} ${c.source}`;

describe('import boundaries', () => {
  it.each(forbidden.map((c) => [label(c), c] as const))('reports %s', async (_label, c) => {
    expect((await importProblems(c)).length).toBeGreaterThan(0);
  });

  it.each(allowed.map((c) => [label(c), c] as const))('allows %s', async (_label, c) => {
    expect(await importProblems(c)).toEqual([]);
  });
});
