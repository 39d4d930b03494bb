/**
 * `npm run verify -- ticket FILE --root R|--blocks URL` and `npm run verify -- block --stake S --seed HEX --root R`:
 * a player's or an auditor's check, with no trust in the server (docs/fairness.md).
 * `main` returns the exit code: 0 verified, 1 not verified, 2 a mistaken call. A ticket
 * is checked against a root from outside the proof (given, or fetched from the published
 * list): the root inside a proof proves nothing, since whoever forged the proof wrote it.
 */
import { readFileSync } from 'node:fs';
import { commitBlock, generateBlock } from '../emission/index.ts';
import { isDigestHex, verifyTicketProof } from '../proofs/index.ts';
import { STAKES_CENTS, isStakeCents, type StakeCents } from '../rules/index.ts';

const USAGE = `usage:
  npm run verify -- ticket FILE --root ROOT        a proof saved from GET /api/plays/{playId}/proof
  npm run verify -- ticket FILE --blocks URL       … against the root the game publishes at URL/api/blocks
  npm run verify -- block --stake 1|2|3|5 --seed HEX --root ROOT
(ROOT: the block's root as published on GET /api/blocks; the seed is published once the block is sold out)`;

class UsageError extends Error {}

function parse(args: string[], allowed: readonly string[]): { positional: string[]; options: Map<string, string> } {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const name = arg.slice(2);
    const value = args[++i];
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    options.set(name, value);
  }
  return { positional, options };
}

function rootOption(value: string | undefined): string | null {
  if (value === undefined) return null;
  const root = value.toLowerCase();
  if (!isDigestHex(root)) throw new UsageError('--root must be 64 hex digits');
  return root;
}

function readProof(file: string, out: (line: string) => void): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    out(`✗ cannot read ${file} as JSON: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

function checkTicket(proof: unknown, root: string, out: (line: string) => void): number {
  const verdict = verifyTicketProof(proof, root);
  for (const check of verdict.checks) out(`${check.ok ? '✓' : '✗'} ${check.name}: ${check.detail}`);
  if (!verdict.ok) {
    out('NOT VERIFIED');
    return 1;
  }
  out('VERIFIED: this ticket is the unit at its position in the block whose root was published');
  return 0;
}

/** GET URL/api/blocks (the game's published list) → the root of the proof's block. */
async function publishedRoot(blocksUrl: string, proof: unknown, out: (line: string) => void): Promise<string | null> {
  const blockId = typeof proof === 'object' && proof !== null ? (proof as { blockId?: unknown }).blockId : undefined;
  if (typeof blockId !== 'string') {
    out('✗ published: the proof names no block');
    return null;
  }
  const url = new URL(blocksUrl.endsWith('/api/blocks') ? blocksUrl : `${blocksUrl.replace(/\/+$/, '')}/api/blocks`);
  let blocks: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    blocks = ((await response.json()) as { blocks?: unknown }).blocks;
  } catch (error) {
    out(`✗ published: cannot read ${url.href}: ${(error as Error).message}`);
    return null;
  }
  const entry = Array.isArray(blocks)
    ? (blocks as { id?: unknown; root?: unknown }[]).find((b) => b.id === blockId)
    : undefined;
  if (!entry || typeof entry.root !== 'string' || !isDigestHex(entry.root)) {
    out(`✗ published: ${url.href} lists no block ${blockId}`);
    return null;
  }
  out(`root ${entry.root} of block ${blockId}, as published at ${url.href}`);
  return entry.root;
}

function ticket(args: string[], out: (line: string) => void): number | Promise<number> {
  const { positional, options } = parse(args, ['root', 'blocks']);
  if (positional.length !== 1) throw new UsageError('ticket takes exactly one FILE');
  const root = rootOption(options.get('root'));
  const blocksUrl = options.get('blocks');
  if (root === null && blocksUrl === undefined) {
    throw new UsageError('ticket needs the published root: --root ROOT, or --blocks URL to fetch it');
  }
  if (root !== null && blocksUrl !== undefined) throw new UsageError('give --root or --blocks, not both');
  if (blocksUrl !== undefined && !URL.canParse(blocksUrl)) throw new UsageError('--blocks must be a URL');
  const proof = readProof(positional[0]!, out);
  if (proof === undefined) return 1;
  if (root !== null) return checkTicket(proof, root, out);
  return publishedRoot(blocksUrl!, proof, out).then((published) => {
    if (published === null) {
      out('NOT VERIFIED');
      return 1;
    }
    return checkTicket(proof, published, out);
  });
}

function block(args: string[], out: (line: string) => void): number {
  const { positional, options } = parse(args, ['stake', 'seed', 'root', 'count']);
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
  const stakeText = options.get('stake');
  const stakeCents = stakeText !== undefined && /^\d+$/.test(stakeText) ? Number(stakeText) * 100 : NaN;
  if (!isStakeCents(stakeCents)) {
    throw new UsageError(`--stake must be one of ${STAKES_CENTS.map((s) => s / 100).join(', ')} (euros)`);
  }
  const seedHex = options.get('seed');
  if (seedHex === undefined) throw new UsageError('--seed is required');
  const root = rootOption(options.get('root'));
  if (root === null) throw new UsageError('--root is required');
  // --count N (tests only): the first N units of the block, as `emission generate --count`.
  const countText = options.get('count');
  if (countText !== undefined && !/^\d+$/.test(countText)) throw new UsageError('--count must be a whole number');
  let commitment;
  try {
    const count = countText === undefined ? undefined : Number(countText);
    commitment = commitBlock(generateBlock({ stakeCents: stakeCents as StakeCents, seedHex, count }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  out(`seed hash ${commitment.seedHash} (compare with the one published before the first sale)`);
  if (commitment.root !== root) {
    out(`✗ the seed gives the root ${commitment.root}, not ${root}`);
    out('NOT VERIFIED');
    return 1;
  }
  out(`✓ the seed gives the block whose root is ${root}`);
  out('VERIFIED');
  return 0;
}

/** The exit code; a promise of it when a root has to be fetched (--blocks). */
export function main(argv: string[], out: (line: string) => void = console.log): number | Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'ticket') return ticket(rest, out);
    if (command === 'block') return block(rest, out);
    throw new UsageError(command === undefined ? 'no command given' : `unknown command ${JSON.stringify(command)}`);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`verify: ${error.message}\n${USAGE}`);
    return 2;
  }
}
