import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface ChildServer {
  process: ChildProcess;
  url: string;
  /** Everything the child wrote, for failure messages. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited: Promise<number | string>;
}

/**
 * Tests open many sessions from one address within a minute: the per-address and total
 * limits (SESSION_CREATE_PER_MINUTE…) are raised unless a test sets them.
 */
export const TEST_SESSION_LIMITS = { SESSION_CREATE_PER_MINUTE: '100000', SESSION_CREATE_TOTAL_PER_MINUTE: '1000000' };

const MAIN = path.resolve('src/server/main.ts');

/** Which server to start: another checkout's (bench:server's baseline) instead of this one's. */
export interface ServerLocation {
  /** Its main.ts; this checkout's by default. */
  main?: string;
  /** Where it runs from. */
  cwd?: string;
  /** Names it in failure messages. */
  label?: string;
  /** The Node executable that runs it; the one running this process by default. */
  node?: string;
}

/** `node --import tsx src/server/main.ts` with this environment; resolves once it listens. */
export function spawnServer(
  env: Record<string, string>,
  timeoutMs = 30_000,
  nodeArgs: string[] = [],
  where: ServerLocation = {},
): Promise<ChildServer> {
  const prefix = where.label ? `${where.label}: ` : '';
  const child = spawn(where.node ?? process.execPath, [...nodeArgs, '--import', 'tsx', where.main ?? MAIN], {
    cwd: where.cwd,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...TEST_SESSION_LIMITS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${prefix}server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1]!, output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${prefix}server exited (${code}) before listening:\n${output}`));
    });
  });
}
