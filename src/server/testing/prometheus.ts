import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The Prometheus server on PATH (Debian's `prometheus` package), or null. */
export function prometheusBinary(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const bin = path.join(dir, 'prometheus');
    try {
      fs.accessSync(bin, fs.constants.X_OK);
      if (fs.statSync(bin).isFile()) return bin;
    } catch {
      // Not in this directory.
    }
  }
  return null;
}

/** A port free on loopback now (for a service whose port must stay the same across restarts). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningPrometheus {
  url: string;
  process: ChildProcess;
  output(): string;
  /** GET /api/v1/<path>: its `data`, or a thrown error with Prometheus's own. */
  api<T = unknown>(apiPath: string, query?: Record<string, string>): Promise<T>;
  stop(): Promise<void>;
}

export interface ActiveAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
  value: string;
}

/**
 * Prometheus with `config` (YAML text, rule files named relative to `dir`) in `dir`, on a
 * free loopback port; resolves once it says ready.
 */
export async function startPrometheus(bin: string, dir: string, config: string): Promise<RunningPrometheus> {
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    bin,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}):\n${output}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus not ready within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const api = async <T>(apiPath: string, query: Record<string, string> = {}): Promise<T> => {
    const response = await fetch(`${url}/api/v1/${apiPath}?${new URLSearchParams(query)}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus /api/v1/${apiPath}: ${body.error ?? response.status}`);
    return body.data;
  };
  return { url, process: child, output: () => output, api, stop };
}

const PROMQL_WORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: its identifiers once strings, label matchers,
 * ranges, groupings and Grafana's `$variables` are taken out, less functions (followed by
 * `(`) and PromQL's keywords.
 */
export function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    const [, name, call] = match;
    if (call || PROMQL_WORDS.has(name!.toLowerCase()) || /^\d/.test(name!)) continue;
    names.add(name!);
  }
  // A number such as 1e3 splits into "e3": not a name either.
  return [...names].filter((name) => !/^e\d+$/.test(name));
}
