import fs from 'node:fs';

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_S = 100;

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); 0 once it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/**
 * Bytes a process has caused to be written to storage so far (`write_bytes` of /proc/<pid>/io:
 * its WAL frames and checkpoints, not its socket writes); 0 once it is gone or where the
 * kernel keeps no I/O accounting.
 */
export function processWrittenBytes(pid: number): number {
  try {
    return Number(/^write_bytes: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** What a process used over some stretch of time: CPU ms and bytes written to storage. */
export interface ProcessUsage {
  cpuMs: number;
  writtenBytes: number;
}

/** Starts counting a process's use now; call the result at the end for what it used since. */
export function usageFrom(pid: number): () => ProcessUsage {
  const cpuMs = processCpuMs(pid);
  const writtenBytes = processWrittenBytes(pid);
  return () => ({ cpuMs: processCpuMs(pid) - cpuMs, writtenBytes: processWrittenBytes(pid) - writtenBytes });
}
