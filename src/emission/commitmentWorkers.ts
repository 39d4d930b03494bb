import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Block } from './block.ts';
import {
  assembleCommitment,
  commitBlock,
  splitCommitment,
  type BlockCommitment,
  type CommitmentSource,
} from './commitment.ts';
import { UNIT_BYTES } from './record.ts';
import type { PartReply, PartRequest } from './commitmentWorker.ts';

/** Below this many units a block is committed in the calling thread: a worker's start costs more. */
export const SMALL_BLOCK_UNITS = 4096;

/**
 * A worker thread whose code is TypeScript, run by tsx like the rest of the server: the
 * thread starts with a small ES module that loads tsx's API, then `moduleHref` through it.
 */
export function startTypeScriptWorker(moduleHref: string, workerData?: unknown): Worker {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `const { tsImport } = await import(${JSON.stringify(tsxApi)});
await tsImport(${JSON.stringify(moduleHref)}, ${JSON.stringify(import.meta.url)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { workerData });
}

function startWorker(): Worker {
  return startTypeScriptWorker(new URL('./commitmentWorker.ts', import.meta.url).href);
}

interface Job {
  request: Omit<PartRequest, 'id'>;
  resolve: (levels: Int32Array[]) => void;
  reject: (error: Error) => void;
}

/**
 * Commits blocks in worker threads, off the thread that serves requests, each block's
 * units split in ranges of whole subtrees computed in parallel (one per worker). The
 * workers start on the first block and stop once no block is left to commit, unless
 * `keepAlive` (the benchmark keeps them to time the work alone).
 */
export class CommitmentWorkers {
  private readonly size: number;
  private readonly keepAlive: boolean;
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job & { id: number }>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: { threads?: number; keepAlive?: boolean } = {}) {
    this.size = Math.max(1, options.threads ?? Math.min(2, availableParallelism()));
    this.keepAlive = options.keepAlive ?? false;
  }

  get threads(): number {
    return this.size;
  }

  /** The block's commitment; a small block is committed at once in this thread. */
  async commit(block: Block): Promise<BlockCommitment> {
    if (this.closed) throw new Error('the commitment workers are closed');
    const { stakeCents, seedHex, count } = block.header;
    if (count < SMALL_BLOCK_UNITS) return commitBlock(block);
    const split = splitCommitment(count, this.size);
    const parts = await Promise.all(
      split.parts.map(([from, to]) => {
        // Each part gets its own copy of its records (a Buffer's slice would be a view of the
        // block's file image, which the transfer would detach), moved to the worker as it is.
        const body = new Uint8Array(block.body.subarray(from * UNIT_BYTES, to * UNIT_BYTES));
        const source: CommitmentSource = { stakeCents, seedHex, count, body, bodyFrom: from };
        return this.run({ source, from, to, depth: split.depth });
      }),
    );
    return assembleCommitment({ stakeCents, seedHex, count }, split, parts);
  }

  /** Stops the workers; commitments still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = [...this.idle, ...this.busy.keys()];
    for (const job of this.busy.values()) job.reject(new Error('the commitment workers were closed'));
    for (const job of this.queue.splice(0)) job.reject(new Error('the commitment workers were closed'));
    this.idle.length = 0;
    this.busy.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private run(request: Omit<PartRequest, 'id'>): Promise<Int32Array[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = this.idle.pop();
      // A worker waiting for work does not keep the process alive (unref when idle).
      if (!worker && this.busy.size < this.size) worker = this.spawn();
      if (!worker) return;
      const job = { ...this.queue.shift()!, id: this.nextId++ };
      this.busy.set(worker, job);
      worker.ref(); // a part under way keeps the process alive, as any pending work does
      const { request } = job;
      worker.postMessage({ ...request, id: job.id } satisfies PartRequest, [request.source.body.buffer as ArrayBuffer]);
    }
    if (this.busy.size === 0 && !this.keepAlive) {
      for (const worker of this.idle.splice(0)) void worker.terminate();
    }
  }

  private spawn(): Worker {
    const worker = startWorker();
    worker.on('message', (reply: PartReply) => {
      const job = this.busy.get(worker);
      if (!job || job.id !== reply.id) return;
      this.busy.delete(worker);
      this.idle.push(worker);
      worker.unref();
      if ('error' in reply) job.reject(new Error(reply.error));
      else job.resolve(reply.levels);
      this.dispatch();
    });
    const fail = (error: Error) => {
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      job?.reject(error);
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.busy.has(worker)) fail(new Error(`a commitment worker stopped (exit code ${code})`));
    });
    return worker;
  }
}
