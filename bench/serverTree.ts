/**
 * For `npm run bench:server` with a baseline: another revision's tree beside this checkout,
 * its server and its block loader run as this checkout's are, and the clean-up of everything
 * the benchmark starts or writes (servers, data dirs, the tree), also on failure, Ctrl-C or kill.
 */
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type ChildServer } from '../src/server/testing/child.ts';

/** A source tree whose server can be run: its root, and its entry points as its package.json names them. */
export interface ServerTree {
  /** The revision, for people: a short hash, and the name it was given when that differs. */
  label: string;
  root: string;
  /** `npm start`'s server entry (src/server/main.ts today), relative to root. */
  main: string;
  /** `npm run ops`'s command line (src/server/ops/cli.ts today), relative to root: its `load FILE…` puts blocks on sale. */
  cli: string;
  /** The Node executable that runs its server and loader. */
  node: string;
}

// ---- clean-up -------------------------------------------------------------------------

const children = new Set<ChildProcess>();
const removals: (() => void)[] = [];

/** Runs `remove` (synchronous, idempotent) when the benchmark ends, however it ends. */
export function removeLater(remove: () => void): void {
  removals.push(remove);
}

/** A temporary directory removed when the benchmark ends. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  removeLater(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A spawned process stopped when the benchmark ends. */
export function stopLater(child: ChildProcess): void {
  children.add(child);
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

async function stop(child: ChildProcess): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM'); // the server finishes the requests in flight, then exits
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Stops every server still running, then removes every temporary directory. */
export async function cleanUp(): Promise<void> {
  await Promise.all([...children].map(stop));
  children.clear();
  removeAll();
}

function removeAll(): void {
  for (const remove of removals.splice(0).reverse()) {
    try {
      remove();
    } catch (error) {
      console.error(`clean-up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

let stopping = false;

// Last resort when the process exits without cleanUp() (an uncaught error, process.exit).
process.once('exit', () => {
  for (const child of children) if (running(child)) child.kill('SIGKILL');
  removeAll();
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal, and relayed by tsx),
  // and a second signal with no handler would end it before the clean-up.
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: stopping the servers and removing the temporary files…`);
    void cleanUp().finally(() => process.exit(code));
  });
}

// ---- trees ----------------------------------------------------------------------------

function git(...args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The last `tsx FILE.ts` of the first of these package.json scripts that has one. */
function scriptEntry(root: string, scripts: string[], fallback: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  for (const name of scripts) {
    const found = [...(pkg.scripts?.[name] ?? '').matchAll(/\btsx\s+(\S+\.ts)\b/g)].at(-1);
    if (found) return found[1]!;
  }
  return fallback;
}

function treeAt(root: string, label: string, node = process.execPath): ServerTree {
  const tree = {
    label,
    root,
    node,
    main: scriptEntry(root, ['start'], 'src/server/main.ts'),
    cli: scriptEntry(root, ['ops', 'audit:ledger'], 'src/server/ops/cli.ts'),
  };
  for (const file of [tree.main, tree.cli]) {
    if (!fs.existsSync(path.join(root, file))) throw new Error(`${label}: no ${file} in its tree`);
  }
  return tree;
}

/** This checkout, as it is on disk (uncommitted changes included, and said so in its label). */
export function currentTree(): ServerTree {
  const root = process.cwd();
  const dirty = git('status', '--porcelain') !== '';
  return treeAt(root, git('rev-parse', '--short', 'HEAD') + (dirty ? ' + uncommitted changes' : ''));
}

/** The short hash of a revision and the name it was given, for people. */
function revisionLabel(rev: string, full: string): string {
  const short = git('rev-parse', '--short', full);
  return full.startsWith(rev) ? short : `${short} (${rev})`;
}

/**
 * The tree of `rev` (`git archive`, so the repository's worktrees and refs are left as they
 * are) in a temporary directory, with this checkout's node_modules linked in. Removed when
 * the benchmark ends.
 *
 * With `node` (`BENCH_BASELINE_NODE`: another Node executable, e.g. the machine's Node 20 beside
 * this run's Node 24) the tree gets node_modules of its own from its own lock, installed by that
 * Node's npm run, so that its native addons (better-sqlite3) are built for the Node that loads them.
 */
export function materialise(rev: string, node?: string): ServerTree {
  let full: string;
  try {
    full = git('rev-parse', '--verify', '--quiet', `${rev}^{commit}`);
  } catch {
    throw new Error(`baseline "${rev}" is not a commit of this repository`);
  }
  const root = tempDir('spincake-baseline-');
  execFileSync('bash', ['-o', 'pipefail', '-c', 'git archive --format=tar "$1" | tar -x -C "$2"', 'bash', full, root], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const label = revisionLabel(rev, full);
  if (node && node !== process.execPath) {
    installModules(root, node);
    return treeAt(root, `${label} on Node ${nodeVersion(node)}`, node);
  }
  const link = path.join(root, 'node_modules');
  fs.symlinkSync(fs.realpathSync('node_modules'), link, 'dir');
  // The link goes first, on its own, so that nothing can ever reach through it.
  removeLater(() => fs.rmSync(link, { force: true }));
  return treeAt(root, label);
}

function nodeVersion(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
}

/** `npm ci` in the tree with `node` first on PATH and no nodedir of ours, so addons build against that Node's own headers. */
function installModules(root: string, node: string): void {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` };
  for (const key of Object.keys(env)) if (/^npm_config_nodedir$/i.test(key)) delete env[key];
  console.log(`installing the baseline's node_modules with ${node} (${nodeVersion(node)})…`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Puts block files on sale in a fresh data dir with the tree's own `load` command (checksum and audit, then a copy under DATA_DIR/blocks). */
export function loadBlocks(tree: ServerTree, dataDir: string, files: string[]): void {
  const result = spawnSync(tree.node, ['--import', 'tsx', tree.cli, 'load', ...files], {
    cwd: tree.root,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(
      `${tree.label}: ${tree.cli} load failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
    );
  }
}

/**
 * The tree's server as src/server/testing/child.ts spawns this checkout's (`node --import tsx
 * MAIN`, same environment), run from the tree's root; resolves once it listens.
 */
export async function spawnTreeServer(
  tree: ServerTree,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ChildServer> {
  const server = await spawnServer(env, timeoutMs, [], {
    main: tree.main,
    cwd: tree.root,
    label: tree.label,
    node: tree.node,
  });
  stopLater(server.process);
  return server;
}
