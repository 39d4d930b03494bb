import type { DemoPurgeBook, IdleDemoPlayer } from './store/types.ts';

/** What the purge needs of the sessions: the session book, or this instance's registry in front of it. */
export interface PurgeSessions {
  playersSeenSince(playerIds: readonly string[], since: string): Promise<Set<string>>;
  revokePlayers(playerIds: readonly string[], now: string): Promise<void>;
}

export interface DemoPurgeOptions {
  /** DEMO_PLAYER_TTL_DAYS (or `--days`): a demo player unused that long goes. At least 1. */
  days: number;
  now: Date;
  /** Counts what would go, removes nothing. */
  dryRun?: boolean;
  /** Players per transaction (each one short, so that plays never wait long behind it). */
  batchSize?: number;
}

export interface DemoPurgeResult {
  players: number;
  plays: number;
  dryRun: boolean;
}

const DAY_MS = 86_400_000;
const DEFAULT_BATCH = 200;

/**
 * Removes demo players unused for `days` days, with their plays, ledger transactions and
 * sessions (issue 29: demo players are not kept forever). Unused: created before the cutoff,
 * no play since and no session used since. Never a portal player, a real-pool play or a play
 * from before pools (their players stay: the store checks it). Per batch: the candidates are
 * read, those with a session still in use dropped, the others' sessions ended (so that none can
 * play meanwhile: a token of theirs gets 401 NO_SESSION), then the store removes them in one
 * transaction, checking again under lock. Idempotent: several instances may run it at once
 * (the second finds nothing left); a crash between the two steps leaves players whose
 * sessions are ended, removed by the next run.
 */
export async function purgeIdleDemoPlayers(
  store: DemoPurgeBook,
  sessions: PurgeSessions,
  options: DemoPurgeOptions,
): Promise<DemoPurgeResult> {
  if (!Number.isInteger(options.days) || options.days < 1)
    throw new Error('the purge needs a whole number of days ≥ 1');
  const cutoff = new Date(options.now.getTime() - options.days * DAY_MS);
  const dryRun = options.dryRun ?? false;
  const limit = options.batchSize ?? DEFAULT_BATCH;
  const result: DemoPurgeResult = { players: 0, plays: 0, dryRun };
  let after: IdleDemoPlayer | null = null;
  for (;;) {
    const page = await store.idleDemoPlayers(cutoff, { after, limit });
    if (page.length === 0) return result;
    after = page[page.length - 1]!;
    const inUse = await sessions.playersSeenSince(
      page.map((p) => p.playerId),
      cutoff.toISOString(),
    );
    const idle = page.filter((p) => !inUse.has(p.playerId));
    if (dryRun) {
      result.players += idle.length;
      result.plays += idle.reduce((n, p) => n + p.plays, 0);
    } else if (idle.length > 0) {
      const ids = idle.map((p) => p.playerId);
      await sessions.revokePlayers(ids, options.now.toISOString());
      const purged = await store.purgeDemoPlayers(ids, cutoff);
      result.players += purged.playerIds.length;
      result.plays += purged.plays;
    }
    if (page.length < limit) return result;
  }
}

export interface DemoPurgeTimerOptions {
  store: DemoPurgeBook;
  sessions: PurgeSessions;
  days: number;
  intervalMs: number;
  clock: () => Date;
  /** After each run that removed someone. */
  onPurged: (result: DemoPurgeResult) => void;
  onError: (error: unknown) => void;
}

/**
 * Runs the purge off the request path, every `intervalMs` (the first run one interval after
 * the start), one run at a time. Every instance runs its own: the purge is idempotent and its
 * transactions lock the players they remove, so instances sharing a database never remove a
 * player twice nor a player in use.
 */
export class DemoPurgeTimer {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private running: Promise<void> | null = null;

  constructor(private readonly options: DemoPurgeTimerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Stops the timer and waits for a run under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One run now (the timer's), its errors reported. */
  async runOnce(): Promise<void> {
    const { store, sessions, days, clock, onPurged, onError } = this.options;
    try {
      const result = await purgeIdleDemoPlayers(store, sessions, { days, now: clock() });
      if (result.players > 0) onPurged(result);
    } catch (error) {
      onError(error);
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => {
        this.running = null;
        if (!this.stopped) this.schedule();
      });
    }, this.options.intervalMs);
    this.timer.unref();
  }
}
