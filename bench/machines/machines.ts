/**
 * The "separate machines" of `bench:postgres -- --machines`: one CPU group per game-server
 * instance and one for a private PostgreSQL cluster, each with its quota; all of it removed
 * at the end, also on failure or Ctrl-C.
 */
import os from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { CpuGroup, cpuGroupsAvailable } from './cpuGroup.ts';
import { startPrivatePostgres, type PrivatePostgres } from './privatePostgres.ts';
import { planQuotas, type QuotaPlan } from './quotas.ts';

/** Defaults chosen for this two-core machine; each can be changed from the environment. */
export function quotaPlanFromEnv(env: NodeJS.ProcessEnv = process.env): QuotaPlan {
  return planQuotas({
    cores: os.cpus().length,
    maxInstances: 3,
    instanceCores: Number(env.BENCH_INSTANCE_CORES ?? 0.25),
    postgresCores: Number(env.BENCH_POSTGRES_CORES ?? 0.8),
    loaderCores: Number(env.BENCH_LOADER_CORES ?? 0.4),
    periodUs: Number(env.BENCH_CFS_PERIOD_US ?? 4_000),
  });
}

/**
 * Each group's weight against the rest of the machine: eight busy processes' worth, so that
 * a group gets its quota even while other work keeps the cores busy (a quota alone is only
 * a ceiling). What the groups can take is still bounded by their quotas.
 */
export const GROUP_SHARES = Number(process.env.BENCH_CPU_SHARES ?? 8 * 1024);

export interface Machines {
  plan: QuotaPlan;
  instanceGroups: CpuGroup[];
  postgresGroup: CpuGroup;
  /** The load generator's: what the quotas leave of the cores. */
  loaderGroup: CpuGroup;
  postgres: PrivatePostgres;
  /** Processes to end if the run is cut short (the instances). */
  children: Set<ChildProcess>;
  tearDown(): void;
}

export async function setUpMachines(plan: QuotaPlan): Promise<Machines> {
  const unavailable = cpuGroupsAvailable();
  if (unavailable) throw new Error(`--machines needs CPU control groups: ${unavailable}`);
  const tag = `spincake-bench-${process.pid}`;
  const groups: CpuGroup[] = [];
  const children = new Set<ChildProcess>();
  let postgres: PrivatePostgres | null = null;
  let tornDown = false;
  const tearDown = () => {
    if (tornDown) return;
    tornDown = true;
    for (const child of children) child.kill('SIGKILL');
    postgres?.stop();
    for (const group of groups) {
      try {
        group.remove();
      } catch (error) {
        console.error(`could not remove ${group.dir}: ${(error as Error).message}`);
      }
    }
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`${signal}: stopping the instances and the private PostgreSQL, removing the CPU groups`);
    tearDown();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const make = (name: string, quotaUs: number) => {
      const group = CpuGroup.create(`${tag}-${name}`, plan.periodUs, quotaUs, GROUP_SHARES);
      groups.push(group);
      return group;
    };
    const postgresGroup = make('postgres', plan.postgresQuotaUs);
    const loaderGroup = make('loader', plan.loaderQuotaUs);
    const instanceGroups: CpuGroup[] = [];
    for (let i = 1; i <= plan.maxInstances; i++) instanceGroups.push(make(`instance${i}`, plan.instanceQuotaUs));
    postgres = await startPrivatePostgres(postgresGroup);
    return { plan, instanceGroups, postgresGroup, loaderGroup, postgres, children, tearDown };
  } catch (error) {
    tearDown();
    throw error;
  }
}
