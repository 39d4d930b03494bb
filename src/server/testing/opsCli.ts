import { spawnSync } from 'node:child_process';

/** `npm run ops -- ARGS` (src/server/ops/cli.ts) in a process of its own, with `env` added. */
export function runOps(env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/server/ops/cli.ts', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
}
