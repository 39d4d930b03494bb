/**
 * CPU groups that stand in for separate machines, each with its quota, and their removal at
 * the end: on success, on failure, and on Ctrl-C or SIGTERM (what runs in them is stopped first).
 */
import type { ChildProcess } from 'node:child_process';
import { CpuGroup, cpuGroupsAvailable } from './cpuGroup.ts';

/**
 * Each group's weight against the rest of the machine: eight busy processes' worth, so that
 * a group gets its quota even while other work keeps the cores busy (a quota alone is only
 * a ceiling). What the groups can take is still bounded by their quotas.
 */
export const GROUP_SHARES = Number(process.env.BENCH_CPU_SHARES ?? 8 * 1024);

export interface Groups<Name extends string> {
  byName: Record<Name, CpuGroup>;
  /** Processes to kill if the run is cut short. */
  children: Set<ChildProcess>;
  /** Runs `stop` on tear-down, once the children are killed and before the groups are removed. */
  onTearDown(stop: () => void): void;
  /** Kills the children, runs the tear-down steps, kills what is left in the groups and removes them; once. */
  tearDown(): void;
}

function killNow(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // It ended meanwhile.
  }
}

/** One group per name, `quotasUs[name]` µs of CPU per `periodUs`, named after this process. */
export function createGroups<Name extends string>(periodUs: number, quotasUs: Record<Name, number>): Groups<Name> {
  const unavailable = cpuGroupsAvailable();
  if (unavailable) throw new Error(`--machines needs CPU control groups: ${unavailable}`);
  const made: CpuGroup[] = [];
  const children = new Set<ChildProcess>();
  const steps: (() => void)[] = [];
  let tornDown = false;
  const tearDown = () => {
    if (tornDown) return;
    tornDown = true;
    for (const child of children) child.kill('SIGKILL');
    for (const step of steps) step();
    for (const group of made) {
      try {
        // What is left was born there too (a load generator's run, say): it goes with its machine.
        for (const pid of group.pids()) if (pid !== process.pid) killNow(pid);
        group.remove();
      } catch (error) {
        console.error(`could not remove ${group.dir}: ${(error as Error).message}`);
      }
    }
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`${signal}: stopping what runs in the CPU groups, removing the groups`);
    tearDown();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const byName = {} as Record<Name, CpuGroup>;
    for (const name of Object.keys(quotasUs) as Name[]) {
      const group = CpuGroup.create(`spincake-bench-${process.pid}-${name}`, periodUs, quotasUs[name], GROUP_SHARES);
      made.push(group);
      byName[name] = group;
    }
    return { byName, children, onTearDown: (stop) => steps.push(stop), tearDown };
  } catch (error) {
    tearDown();
    throw error;
  }
}
