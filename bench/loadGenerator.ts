/**
 * The load generators of the HTTP benchmarks, with one result shape: autocannon in the
 * benchmark's own process, or Debian's wrk (in C, a quarter of autocannon's CPU per request)
 * as a process of its own, timed by /usr/bin/time for its CPU and, with `--machines`, born in
 * the load generator's CPU group. Its request scripts are in bench/wrk/.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import type { CpuGroup } from './machines/cpuGroup.ts';

export interface LoadResult {
  requests: number;
  /** How long the load ran, by the load generator's own clock. */
  seconds: number;
  p50: number;
  p99: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  /** CPU of the load generator, ms (wrk: its own process; autocannon: measured around it). */
  cpuMs: number | null;
}

export function autocannonLoad(options: autocannon.Options): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, r) =>
      error
        ? reject(error)
        : resolve({
            requests: r.requests.total,
            seconds: r.duration,
            p50: r.latency.p50,
            p99: r.latency.p99,
            errors: r.errors + r.timeouts,
            non2xx: r.non2xx,
            cpuMs: null,
          }),
    );
  });
}

/** bench/wrk's scripts: every request a new sale (plays.lua), or a new signed bet at the wallet (bets.lua). */
export const WRK_SCRIPTS = {
  plays: path.resolve('bench/wrk/plays.lua'),
  bets: path.resolve('bench/wrk/bets.lua'),
};

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

/** Whether wrk and /usr/bin/time (for its CPU) are installed. */
export function wrkAvailable(): boolean {
  return onPath('wrk') && fs.existsSync('/usr/bin/time');
}

let wrkRuns = 0;
/** A number for each wrk process of this run, part of the ids its requests make (12 bits). */
export function nextWrkTag(): number {
  if (wrkRuns >= 4096) throw new Error('more than 4096 wrk processes in one run: their request ids could repeat');
  return wrkRuns++;
}

/** A wrk duration like `1.59ms` / `455.34us` / `1.02s` / `1.02m`, in ms. */
export function wrkMs(text: string): number {
  const m = /([\d.]+)(us|ms|s|m)\b/.exec(text);
  if (!m) return NaN;
  const value = Number(m[1]);
  return m[2] === 'us' ? value / 1000 : m[2] === 's' ? value * 1000 : m[2] === 'm' ? value * 60_000 : value;
}

/** What wrk (with `--latency`) and `/usr/bin/time -f 'cpu %U %S'` printed. */
export function parseWrk(stdout: string, stderr: string): LoadResult {
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const total = /(\d+) requests in (\S+),/.exec(stdout);
  return {
    requests: Number(total?.[1] ?? NaN),
    seconds: wrkMs(total?.[2] ?? '') / 1000,
    // At the start of a line: "Latency … 85.50%" (its +/- Stdev) is no percentile.
    p50: wrkMs(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
    p99: wrkMs(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
    errors: socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0),
    cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null,
  };
}

/**
 * One wrk process (one thread) with `connections` for `durationS` against `target` (its URL,
 * script and the script's arguments), under /usr/bin/time for its CPU; born in `group` if given.
 */
export function runWrk(
  connections: number,
  durationS: number,
  target: string[],
  group?: CpuGroup | null,
): Promise<LoadResult> {
  const args = ['-f', 'cpu %U %S', 'wrk', '-t1', `-c${connections}`, `-d${durationS}s`, '--latency', ...target];
  return new Promise((resolve, reject) => {
    // execFile forks before it returns: the process is born in the group, then this one leaves it.
    const inside = group?.enter();
    try {
      execFile('/usr/bin/time', args, (error, stdout, stderr) => {
        if (error) return reject(new Error(`wrk failed: ${error.message}\n${stdout}${stderr}`));
        const result = parseWrk(stdout, stderr);
        // A figure that wrk printed in a shape not parsed here shows as "—", with wrk's own words.
        if ([result.requests, result.seconds, result.p50, result.p99].some(Number.isNaN))
          console.warn(`wrk output not understood:\n${stdout}`);
        resolve(result);
      });
    } finally {
      inside?.leave();
    }
  });
}
