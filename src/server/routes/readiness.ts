import type { AppContext } from '../http/context.ts';
import type { BlockPool, BlockRecord } from '../store/types.ts';

/** Readiness waits this long for the database before answering « not ready ». */
const READY_TIMEOUT_MS = 2000;

/** Why an instance should not be sent players yet: the error code and reason of its 503. */
export interface NotReady {
  code: 'INTERNAL' | 'SOLD_OUT';
  reason: string;
}

/** One condition of readiness: null when it holds. */
type ReadinessCheck = (ctx: AppContext, blocks: readonly BlockRecord[]) => NotReady | null;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function blockName(block: BlockRecord): string {
  return `${block.stakeCents / 100} € ${block.id.slice(0, 16)}…`;
}

const someUnitOnSale: ReadinessCheck = (_ctx, blocks) =>
  blocks.some((block) => block.status !== 'closed' && block.nextPosition < block.count)
    ? null
    : { code: 'SOLD_OUT', reason: 'no block has a unit on sale' };

/**
 * Every open and queued block has its root published: until then the first plays of its
 * stake would wait for it (a commitment file lost at a power cut is recomputed at start, a
 * few seconds per block). Publication of any block still without one is started here, so a
 * block loaded while the instance runs gets there too.
 */
const everyRootPublished: ReadinessCheck = (ctx, blocks) => {
  const waiting = blocks.filter((block) => block.status !== 'closed' && !ctx.library.isPublished(block));
  for (const block of waiting) ctx.library.publish(block).catch(() => {}); // a play of its stake reports it
  if (waiting.length === 0) return null;
  const named = waiting.slice(0, 4).map(blockName).join(', ');
  return {
    code: 'INTERNAL',
    reason: `${waiting.length} block(s) on sale without a published root yet (${named}${waiting.length > 4 ? ', …' : ''}): computing`,
  };
};

/**
 * Every open and queued block has its entry in the transparency log, in a signed head: no unit
 * is sold before that, so until then its stake's first plays would wait. Logging is started here
 * for any block still without it.
 */
const everyEntryLogged: ReadinessCheck = (ctx, blocks) => {
  const waiting = blocks.filter((block) => block.status !== 'closed' && !ctx.publication.isLogged(block));
  for (const block of waiting) ctx.publication.publish(block).catch(() => {}); // a play of its stake reports it
  if (waiting.length === 0) return null;
  const named = waiting.slice(0, 4).map(blockName).join(', ');
  return {
    code: 'INTERNAL',
    reason: `${waiting.length} block(s) on sale not yet in a signed head of the transparency log (${named}${waiting.length > 4 ? ', …' : ''}): logging`,
  };
};

/** What readiness requires, in order, the first that fails giving the reason: the one place to add a condition. */
const READINESS_CHECKS: readonly ReadinessCheck[] = [someUnitOnSale, everyRootPublished, everyEntryLogged];

/** The pools this server sells: demo play, and portal players' real money (real alone when neither is on). */
export function poolsSold(ctx: Pick<AppContext, 'config'>): BlockPool[] {
  const pools: BlockPool[] = [];
  if (ctx.config.demoMode) pools.push('demo');
  if (ctx.config.portalSecret !== null || pools.length === 0) pools.push('real');
  return pools;
}

/**
 * Whether the instance can sell now (null) or why not: the database answers within 2 s,
 * some block has a unit on sale, and each READINESS_CHECKS condition holds, for the
 * blocks of the pools this server sells only.
 */
export async function notReady(ctx: AppContext): Promise<NotReady | null> {
  let blocks: BlockRecord[];
  try {
    const pools = poolsSold(ctx);
    const all = await withTimeout(ctx.store.listBlocks(), READY_TIMEOUT_MS);
    blocks = all.filter((block) => pools.includes(block.pool));
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
    return { code: 'INTERNAL', reason: `the database does not answer (${reason})` };
  }
  for (const check of READINESS_CHECKS) {
    const failed = check(ctx, blocks);
    if (failed) return failed;
  }
  return null;
}
