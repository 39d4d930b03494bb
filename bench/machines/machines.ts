/**
 * The "separate machines" of `bench:postgres -- --machines`: one CPU group per game-server
 * instance and one for a private PostgreSQL cluster, each with its quota; all of it removed
 * at the end, also on failure or Ctrl-C.
 */
import os from 'node:os';
import type { ChildProcess } from 'node:child_process';
import type { CpuGroup } from './cpuGroup.ts';
import { createGroups } from './groups.ts';
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
  const instances = Array.from({ length: plan.maxInstances }, (_, i) => `instance${i + 1}`);
  const quotasUs: Record<string, number> = {
    postgres: plan.postgresQuotaUs,
    loader: plan.loaderQuotaUs,
    ...Object.fromEntries(instances.map((name) => [name, plan.instanceQuotaUs])),
  };
  const groups = createGroups(plan.periodUs, quotasUs);
  try {
    const postgres = await startPrivatePostgres(groups.byName.postgres!);
    groups.onTearDown(() => postgres.stop());
    return {
      plan,
      instanceGroups: instances.map((name) => groups.byName[name]!),
      postgresGroup: groups.byName.postgres!,
      loaderGroup: groups.byName.loader!,
      postgres,
      children: groups.children,
      tearDown: groups.tearDown,
    };
  } catch (error) {
    groups.tearDown();
    throw error;
  }
}
