/**
 * A throwaway PostgreSQL cluster for `bench:postgres -- --machines`: initdb into a temporary
 * directory, started on a free port with its postmaster born inside a CPU group (so every
 * backend it forks is in the group too), stopped and deleted at the end. The machine's own
 * cluster (127.0.0.1:5432, which other tests use) is never touched.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { CpuGroup } from './cpuGroup.ts';

/** The same durability as the machine's cluster (and PostgreSQL's defaults): every commit on disk. */
export const PRIVATE_SETTINGS = {
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  shared_buffers: '128MB',
  max_connections: '100',
} as const;

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries (initdb) under ${root}`);
  return path.join(root, versions[0]!, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL tool as the `postgres` user when this process is root (initdb refuses root). */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface PrivatePostgres {
  /** The maintenance database's URL (trust auth, user postgres). */
  adminUrl: string;
  port: number;
  /** Stops the cluster and deletes its directory; synchronous, safe to call twice. */
  stop(): void;
}

export async function startPrivatePostgres(group: CpuGroup): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-bench-pg-'));
  const data = path.join(dir, 'data');
  let started = false;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (started) {
      const [cmd, args] = asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      const result = spawnSync(cmd, args, { stdio: 'ignore' });
      if (result.status !== 0) {
        // Not stopped in time: end the postmaster itself (its backends follow it).
        try {
          const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
          if (pid > 0) process.kill(pid, 'SIGQUIT');
        } catch {
          // No postmaster.pid, or no such process: nothing left running.
        }
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      fs.chownSync(dir, uid, gid);
    }
    const [initCmd, initArgs] = asPostgres(path.join(bin, 'initdb'), [
      '-D',
      data,
      '--auth=trust',
      '--username=postgres',
      '--encoding=UTF8',
      '--no-instructions',
    ]);
    execFileSync(initCmd, initArgs, { stdio: 'pipe' });
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      `-c listen_addresses=127.0.0.1`,
      ...Object.entries(PRIVATE_SETTINGS).map(([name, value]) => `-c ${name}=${value}`),
    ].join(' ');
    const [ctlCmd, ctlArgs] = asPostgres(path.join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-o',
      options,
      '-w',
      'start',
    ]);
    // pg_ctl forks the postmaster, which forks every backend: all of them born in the group.
    const result = group.spawnInside(() => spawnSync(ctlCmd, ctlArgs, { encoding: 'utf8' }));
    started = true;
    if (result.status !== 0) {
      const log = fs.existsSync(path.join(dir, 'log')) ? fs.readFileSync(path.join(dir, 'log'), 'utf8') : '';
      throw new Error(`pg_ctl start failed (${result.status}): ${result.stdout}${result.stderr}\n${log}`);
    }
    return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** A fresh database on that cluster, for one measurement; dropped afterwards. */
export async function createDatabaseOn(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // pgrowlocks (contrib): the benchmark sees whether a block cursor is locked without locking it.
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION pgrowlocks');
  } finally {
    await client.end();
  }
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
