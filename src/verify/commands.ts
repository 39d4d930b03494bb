/**
 * `npm run verify -- ticket FILE --root R|--blocks URL [--key K] [--play FILE]`,
 * `npm run verify -- block --stake S --seed HEX --root R` and
 * `npm run verify -- monitor URL --state FILE`: a player's or an auditor's check, with no
 * trust in the server (docs/fairness.md). `main` resolves to the exit code: 0 verified,
 * 1 not verified, 2 a mistaken call. A ticket is checked against a root from outside the
 * proof (given, or fetched from the published list): the root inside a proof proves
 * nothing, since whoever forged the proof wrote it.
 */
import { readFileSync } from 'node:fs';
import { generateBlock } from '../emission/index.ts';
import { recomputedCommitment } from './blockCommitment.ts';
import { isDigestHex } from '../proofs/index.ts';
import { STAKES_CENTS, isStakeCents, type StakeCents } from '../rules/index.ts';
import { verifyLoggedTicket, type SeenLoggedPlay } from '../transparency/index.ts';
import { runCommandLine } from '../common/commandLine.ts';
import { commandArgs, UsageError } from './args.ts';
import { monitor } from './monitor.ts';
import { nodeSha256 } from '../transparency/nodeSha256.ts';

export const USAGE = `usage:
  npm run verify -- ticket FILE (--root ROOT | --blocks URL) [--key KEY] [--play PLAY]
        FILE: a proof saved from GET /api/plays/{playId}/proof; ROOT: its block's published root, or
        URL: the game, whose URL/api/blocks gives it; PLAY: the play as the game showed it
        (GET /api/plays/{playId}, saved); KEY: the log's key from GET /api/transparency/key
  npm run verify -- block --stake 1|2|3|5 --seed HEX --root ROOT
  npm run verify -- monitor URL --state FILE       the server's log, checked since the head kept in FILE
(ROOT: the block's root as published on GET /api/blocks; the seed is published once the block is sold out;
every command takes --help)`;

function rootOption(value: string | undefined, name = 'root'): string | null {
  if (value === undefined) return null;
  const root = value.toLowerCase();
  if (!isDigestHex(root)) throw new UsageError(`--${name} must be 64 hex digits`);
  return root;
}

function readJson(file: string, out: (line: string) => void): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(readFileSync(file, 'utf8')) };
  } catch (error) {
    out(`✗ cannot read ${file} as JSON: ${(error as Error).message.split('\n')[0]}`);
    return { ok: false };
  }
}

/** The play as the game showed it: GET /api/plays/{playId}'s answer, or its `play`. */
function seenPlay(value: unknown): SeenLoggedPlay | null {
  const play = (value as { play?: unknown })?.play ?? value;
  const p = play as Partial<SeenLoggedPlay> | null;
  if (typeof p !== 'object' || p === null || typeof p.playId !== 'string' || !Array.isArray(p.wheels)) return null;
  if (typeof p.winCents !== 'number') return null;
  return { playId: p.playId, wheels: p.wheels, winCents: p.winCents, createdAt: p.createdAt };
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

async function ticket(args: string[], out: (line: string) => void): Promise<number> {
  const { positional, options } = commandArgs('ticket', args, ['root', 'blocks', 'key', 'play'], 1);
  const givenRoot = rootOption(options.root);
  const blocksUrl = options.blocks;
  if (givenRoot === null && blocksUrl === undefined) {
    throw new UsageError('ticket needs the published root: --root ROOT, or --blocks URL to fetch it');
  }
  if (givenRoot !== null && blocksUrl !== undefined) throw new UsageError('give --root or --blocks, not both');
  if (blocksUrl !== undefined && !URL.canParse(blocksUrl)) throw new UsageError('--blocks must be a URL');
  const key = rootOption(options.key, 'key');
  const proof = readJson(positional[0]!, out);
  if (!proof.ok) return 1;
  const root = givenRoot ?? (await publishedRoot(blocksUrl!, proof.value, out));
  if (root === null) {
    out('NOT VERIFIED');
    return 1;
  }
  let seen: SeenLoggedPlay | undefined;
  const playFile = options.play;
  if (playFile !== undefined) {
    const play = readJson(playFile, out);
    if (!play.ok) return 1;
    const parsed = seenPlay(play.value);
    if (!parsed) {
      out(`✗ ${playFile} is not a play (GET /api/plays/{playId})`);
      return 1;
    }
    seen = parsed;
  }
  const verdict = await verifyLoggedTicket(proof.value, {
    publishedRoot: root,
    trustedKey: key,
    seen,
    sha256: nodeSha256,
  });
  for (const check of verdict.checks) out(`${check.ok ? '✓' : '✗'} ${check.name}: ${check.detail}`);
  if (!verdict.ok) {
    out('NOT VERIFIED');
    return 1;
  }
  const keyNote =
    key === null
      ? ', logged before the sale in a head signed by the key in the proof (compare it with GET /api/transparency/key: --key)'
      : ', logged before the sale in a head signed by the log’s key';
  const playNote = seen === undefined ? '' : '; it is the play you were shown';
  out(`VERIFIED: this ticket is the unit at its position in the block whose root was published${keyNote}${playNote}`);
  return 0;
}

function block(args: string[], out: (line: string) => void): number {
  const { options } = commandArgs('block', args, ['stake', 'seed', 'root', 'count'], 0);
  const stakeText = options.stake;
  const stakeCents = stakeText !== undefined && /^\d+$/.test(stakeText) ? Number(stakeText) * 100 : NaN;
  if (!isStakeCents(stakeCents)) {
    throw new UsageError(`--stake must be one of ${STAKES_CENTS.map((s) => s / 100).join(', ')} (euros)`);
  }
  const seedHex = options.seed;
  if (seedHex === undefined) throw new UsageError('--seed is required');
  const root = rootOption(options.root);
  if (root === null) throw new UsageError('--root is required');
  // --count N (tests only): the first N units of the block, as `emission generate --count`.
  const countText = options.count;
  if (countText !== undefined && !/^\d+$/.test(countText)) throw new UsageError('--count must be a whole number');
  let commitment;
  try {
    const count = countText === undefined ? undefined : Number(countText);
    commitment = recomputedCommitment(generateBlock({ stakeCents: stakeCents as StakeCents, seedHex, count }));
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

/**
 * `npm run verify -- …`: 0 verified, 1 not verified, 2 a mistaken call (an unknown command
 * or flag, a missing value, a stray argument: the usage on stderr); `--help` prints the
 * usage on stdout.
 */
export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = argv;
  return runCommandLine(
    'verify',
    USAGE,
    () => {
      if (command === 'ticket') return ticket(rest, out);
      if (command === 'block') return block(rest, out);
      if (command === 'monitor') return monitor(rest, out);
      if (command === '--help' || command === '-h' || command === 'help') {
        out(USAGE);
        return 0;
      }
      throw new UsageError(command === undefined ? 'no command given' : `unknown command ${JSON.stringify(command)}`);
    },
    { out, err: (line) => console.error(line) },
  );
}
