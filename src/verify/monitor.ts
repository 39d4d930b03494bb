/**
 * `npm run verify -- monitor URL --state FILE`: checks a server's transparency log the way
 * an RFC 9162 monitor does, from anywhere and with no trust in the server (docs/fairness.md,
 * "Monitors"). It fetches the newest signed head and checks its signature with the key kept
 * in FILE (the server's key on a first run), its consistency with the head kept in FILE,
 * and every entry since: all of them hash to the head's root; a block is committed once; a
 * seed hashes to its block's seed hash, and the block regenerated from it has its root.
 * Every block GET /api/blocks shows must be logged with the same root and seed hash. Only
 * when every check passes is the new head kept (FILE written whole, then renamed).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { generateBlock } from '../emission/index.ts';
import { recomputedCommitment } from './blockCommitment.ts';
import { fromHex, toHex } from '../proofs/index.ts';
import { isStakeCents, type StakeCents } from '../rules/index.ts';
import {
  entryBytes,
  isSignedTreeHead,
  logLeafHash,
  logRoot,
  parseEntry,
  verifyConsistency,
  verifyHeadSignature,
  type SignedTreeHead,
} from '../transparency/index.ts';
import { nodeSha256 } from '../transparency/nodeSha256.ts';
import { commandArgs, UsageError } from './args.ts';

export const MONITOR_STATE_FORMAT = 'spincake-log-monitor/1';

interface LoggedBlock {
  stakeCents: number;
  count: number;
  root: string;
  seedHash: string;
  revealed: boolean;
}

/** What a monitor keeps between runs. */
export interface MonitorState {
  format: string;
  url: string;
  publicKey: string;
  head: SignedTreeHead;
  /** Every entry's leaf hash, hex, in order: the tree is recomputed from them. */
  leaves: string[];
  blocks: Record<string, LoggedBlock>;
}

type Out = (line: string) => void;

class MonitorFailure extends Error {}

async function getJson<T>(base: string, path: string): Promise<T> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(new URL(path, base));
    text = await response.text();
  } catch (error) {
    throw new MonitorFailure(`GET ${path}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new MonitorFailure(`GET ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

function readState(file: string): MonitorState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const state = JSON.parse(text) as MonitorState;
  if (state.format !== MONITOR_STATE_FORMAT || !isSignedTreeHead(state.head)) {
    throw new UsageError(`${file} is not a monitor's state (${MONITOR_STATE_FORMAT})`);
  }
  return state;
}

function writeState(file: string, state: MonitorState): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(state, null, 1));
  renameSync(temp, file);
}

/** A seed entry's block regenerated: its root, or why not. */
function regeneratedRoot(block: LoggedBlock, seed: string): string {
  if (!isStakeCents(block.stakeCents))
    throw new MonitorFailure(`a block of ${block.stakeCents} cents cannot be regenerated`);
  const regenerated = generateBlock({ stakeCents: block.stakeCents as StakeCents, seedHex: seed, count: block.count });
  return recomputedCommitment(regenerated).root;
}

async function run(url: string, stateFile: string, out: Out): Promise<number> {
  const kept = readState(stateFile);
  if (kept && kept.url !== url) out(`note: ${stateFile} was kept for ${kept.url}`);
  const { publicKey } = await getJson<{ publicKey: string }>(url, '/api/transparency/key');
  const key = kept?.publicKey ?? publicKey;
  if (publicKey !== key) throw new MonitorFailure(`the log's key changed from ${key} to ${publicKey}`);
  const head = await getJson<SignedTreeHead>(url, '/api/transparency/head');
  if (!isSignedTreeHead(head)) throw new MonitorFailure('the head is not a signed tree head');
  if (!(await verifyHeadSignature(head, key))) throw new MonitorFailure('the head’s signature is not the log’s key’s');
  out(`✓ head: ${head.treeSize} entries, root ${head.rootHash}, signed ${new Date(head.timestamp).toISOString()}`);

  const old = kept?.head ?? null;
  if (old) {
    if (head.treeSize < old.treeSize || head.timestamp < old.timestamp) {
      throw new MonitorFailure(
        `the head went back: ${head.treeSize} entries at ${head.timestamp}, kept ${old.treeSize} at ${old.timestamp}`,
      );
    }
    const { consistency } = await getJson<{ consistency: string[] }>(
      url,
      `/api/transparency/consistency?first=${old.treeSize}&second=${head.treeSize}`,
    );
    const consistent = verifyConsistency(
      nodeSha256,
      old.treeSize,
      head.treeSize,
      fromHex(old.rootHash)!,
      fromHex(head.rootHash)!,
      consistency.map((h) => fromHex(h) ?? new Uint8Array(0)),
    );
    if (!consistent)
      throw new MonitorFailure(
        `the log is not an extension of the kept head (${old.treeSize} entries, root ${old.rootHash})`,
      );
    out(`✓ consistency: the log extends the kept head of ${old.treeSize} entries`);
  }

  const leaves = (kept?.leaves ?? []).map((h) => fromHex(h)!);
  const blocks: Record<string, LoggedBlock> = { ...(kept?.blocks ?? {}) };
  for (let start = leaves.length; start < head.treeSize;) {
    const { entries } = await getJson<{ entries: { index: number; data: string }[] }>(
      url,
      `/api/transparency/entries?start=${start}&end=${head.treeSize - 1}`,
    );
    if (entries.length === 0) throw new MonitorFailure(`no entry from ${start} on`);
    for (const { index, data } of entries) {
      if (index !== leaves.length) throw new MonitorFailure(`entry ${index} came where ${leaves.length} was due`);
      const entry = parseEntry(data);
      if (!entry) throw new MonitorFailure(`entry ${index} is not a log entry: ${JSON.stringify(data).slice(0, 120)}`);
      if (entry.kind === 'commitment') {
        if (blocks[entry.blockId])
          throw new MonitorFailure(`entry ${index}: block ${entry.blockId} is committed twice`);
        const { stakeCents, count, root, seedHash } = entry;
        blocks[entry.blockId] = { stakeCents, count, root, seedHash, revealed: false };
        out(
          `✓ entry ${index}: block ${entry.blockId.slice(0, 16)}… (${entry.pool}, ${stakeCents} cents, ${count} units) committed to root ${root}`,
        );
      } else {
        const block = blocks[entry.blockId];
        if (!block) throw new MonitorFailure(`entry ${index}: the seed of block ${entry.blockId}, never committed`);
        if (block.revealed) throw new MonitorFailure(`entry ${index}: block ${entry.blockId}'s seed is revealed twice`);
        const seedHash = toHex(nodeSha256(fromHex(entry.seed)!));
        if (seedHash !== block.seedHash) {
          throw new MonitorFailure(
            `entry ${index}: the seed of block ${entry.blockId} hashes to ${seedHash}, not to ${block.seedHash}`,
          );
        }
        const root = regeneratedRoot(block, entry.seed);
        if (root !== block.root) {
          throw new MonitorFailure(
            `entry ${index}: the block regenerated from its seed has the root ${root}, not ${block.root}`,
          );
        }
        block.revealed = true;
        out(
          `✓ entry ${index}: block ${entry.blockId.slice(0, 16)}…'s seed matches its seed hash; regenerated, its root is the committed one`,
        );
      }
      leaves.push(logLeafHash(nodeSha256, entryBytes(data)));
    }
    start = leaves.length;
  }
  const root = toHex(logRoot(nodeSha256, leaves));
  if (root !== head.rootHash)
    throw new MonitorFailure(`the entries give the root ${root}, not the head's ${head.rootHash}`);
  out(`✓ entries: all ${head.treeSize} hash to the head's root`);

  const published = await getJson<{ blocks: { id: string; root: string; seedHash: string; status: string }[] }>(
    url,
    '/api/blocks',
  );
  for (const block of published.blocks) {
    const logged = blocks[block.id];
    if (!logged) {
      // A block loaded but not yet reached: logged before its first sale, not before.
      if (block.status === 'queued') continue;
      throw new MonitorFailure(`block ${block.id} is ${block.status} but not in the log`);
    }
    if (logged.root !== block.root || logged.seedHash !== block.seedHash) {
      throw new MonitorFailure(`block ${block.id} is published with another root or seed hash than the log's`);
    }
  }
  out(`✓ blocks: the ${published.blocks.length} published have the logged roots`);

  writeState(stateFile, { format: MONITOR_STATE_FORMAT, url, publicKey: key, head, leaves: leaves.map(toHex), blocks });
  out(
    `VERIFIED: head kept in ${stateFile} (compare it with other monitors: size ${head.treeSize}, root ${head.rootHash})`,
  );
  return 0;
}

export async function monitor(args: string[], out: Out): Promise<number> {
  const { positional, options } = commandArgs('monitor', args, ['state'], 1);
  const stateFile = options.state;
  if (stateFile === undefined) throw new UsageError('--state FILE is required (created on the first run)');
  let url: string;
  try {
    url = new URL(positional[0]!).toString();
  } catch {
    throw new UsageError(`${positional[0]} is not a URL`);
  }
  try {
    return await run(url, stateFile, out);
  } catch (error) {
    if (!(error instanceof MonitorFailure)) throw error;
    out(`✗ ${error.message}`);
    out('NOT VERIFIED: the kept head is unchanged');
    return 1;
  }
}
