import { parentPort, workerData } from 'node:worker_threads';
import type { StakeCents } from '../../rules/index.ts';
import { makeBlockFile, type MadeBlock } from './blockLoading.ts';

/** A demo block made off the thread that answers requests (DemoBlocks starts one per block). */
export interface DemoBlockJob {
  stakeCents: StakeCents;
  dataDir: string;
}

export type DemoBlockReply = { made: MadeBlock } | { error: string };

const job = workerData as DemoBlockJob;
makeBlockFile(job.stakeCents, job.dataDir, 'demo').then(
  (made) => parentPort!.postMessage({ made } satisfies DemoBlockReply),
  (error: unknown) =>
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies DemoBlockReply),
);
