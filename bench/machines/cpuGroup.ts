/**
 * A cgroup v1 `cpu` group with a CFS quota: the processes in it (and every child they fork
 * afterwards) get at most `quota` µs of CPU per `period` µs, like a machine with that many
 * cores. Needs root and the v1 hierarchy at /sys/fs/cgroup/cpu.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cpuGroupOf, parseCpuStat, parseProcs, type CpuStat } from './quotas.ts';

export const CPU_HIERARCHY = '/sys/fs/cgroup/cpu';

/** Whether this process can make groups here (cgroup v1 `cpu` mounted, writable). */
export function cpuGroupsAvailable(): string | null {
  if (!fs.existsSync(path.join(CPU_HIERARCHY, 'cpu.cfs_quota_us')))
    return `no cgroup v1 cpu controller at ${CPU_HIERARCHY}`;
  try {
    fs.accessSync(CPU_HIERARCHY, fs.constants.W_OK);
  } catch {
    return `${CPU_HIERARCHY} is not writable (run as root)`;
  }
  return null;
}

let home: string | null = null;
/**
 * The group this process started in (where it goes back to, and where leftovers are moved);
 * read on first use, so that importing this file costs nothing where there are no groups.
 */
function homeGroup(): string {
  home ??= path.join(CPU_HIERARCHY, cpuGroupOf(fs.readFileSync('/proc/self/cgroup', 'utf8')));
  return home;
}

export class CpuGroup {
  readonly dir: string;

  private constructor(dir: string) {
    this.dir = dir;
  }

  /**
   * `shares` is the group's weight against the other processes of the machine (one busy
   * process weighs 1024): a heavier group gets its quota first when the cores are contended.
   */
  static create(name: string, periodUs: number, quotaUs: number, shares: number): CpuGroup {
    const dir = path.join(homeGroup(), name);
    fs.mkdirSync(dir);
    const group = new CpuGroup(dir);
    group.write('cpu.cfs_period_us', periodUs);
    group.write('cpu.cfs_quota_us', quotaUs);
    group.write('cpu.shares', shares);
    return group;
  }

  private write(file: string, value: number): void {
    fs.writeFileSync(path.join(this.dir, file), `${value}\n`);
  }

  /** The processes in the group now. */
  pids(): number[] {
    return parseProcs(fs.readFileSync(path.join(this.dir, 'cgroup.procs'), 'utf8'));
  }

  stat(): CpuStat {
    return parseCpuStat(fs.readFileSync(path.join(this.dir, 'cpu.stat'), 'utf8'));
  }

  /**
   * Runs `fork` (which must start its process synchronously, as child_process.spawn does)
   * with this process inside the group, so that the child is born in it, before it can
   * fork anything of its own; then this process goes back where it was.
   */
  spawnInside<T>(fork: () => T): T {
    const inside = this.enter();
    try {
      return fork();
    } finally {
      inside.leave();
    }
  }

  /** Puts this process in the group until `leave()`: what it forks meanwhile is born there. */
  enter(): { leave(): void } {
    this.write('cgroup.procs', process.pid);
    return { leave: () => fs.writeFileSync(path.join(homeGroup(), 'cgroup.procs'), `${process.pid}\n`) };
  }

  /**
   * Moves whatever is still in the group back to this process's own group and removes it.
   * Synchronous, so that it also runs from a signal handler on the way out.
   */
  remove(): void {
    if (!fs.existsSync(this.dir)) return;
    for (let attempt = 0; ; attempt++) {
      for (const pid of this.pids()) {
        try {
          fs.writeFileSync(path.join(homeGroup(), 'cgroup.procs'), `${pid}\n`);
        } catch {
          // It exited meanwhile.
        }
      }
      try {
        fs.rmdirSync(this.dir);
        return;
      } catch (error) {
        // EBUSY while a process forked in the meantime: move it too.
        if (attempt >= 20) throw error;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      }
    }
  }
}
