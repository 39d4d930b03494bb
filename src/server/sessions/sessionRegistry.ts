import { randomUUID } from 'node:crypto';
import type { SessionClaims } from '../tokens.ts';
import type { SessionBook } from './sessionBook.ts';

/** Why a well-signed session is refused. */
export type SessionRefusal = 'revoked' | 'idle';

export interface SessionRegistrySettings {
  /** A session unused that long ends; 0: never for idleness. */
  idleSeconds: number;
  /** How often this instance reads the sessions ended elsewhere and writes its sessions' uses. */
  pollMs: number;
}

/**
 * Logouts and idle timeouts, for every instance, without a database round trip per request.
 *
 * Each instance keeps in memory the sessions ended (read from the book at start, then every
 * `pollMs`: a logout elsewhere reaches it within that time; here, at once) and the last use
 * of the sessions it serves (written to the book every `pollMs`, in one statement). A request
 * is answered from memory when memory suffices: ended → refused; used within the idle time
 * (here, or opened that recently) → accepted. Only a session that looks idle from here asks
 * the book — another instance may have served it meanwhile — so the hot path (a play) costs
 * a map lookup, and the database is read once per session that comes back after a pause.
 *
 * Times in the book are ISO 8601 text. Instances compare their own clocks with each
 * other's through it: keep them in step (NTP); `REVOKED_OVERLAP_MS` absorbs small drift.
 */
export class SessionRegistry {
  /** Ended sessions, with their expiry (forgotten after it: their tokens are refused anyway). */
  private readonly revoked = new Map<string, number>();
  /** Last use seen here, ms since the epoch. */
  private readonly lastSeen = new Map<string, number>();
  /** Sessions used since the last write to the book. */
  private readonly used = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  /** The exchange with the book under way, if any: stop() waits for it before the book closes. */
  private inFlight: Promise<void> | null = null;
  /** The latest revocations already read are read again this far back: a commit may land late. */
  private static readonly REVOKED_OVERLAP_MS = 60_000;
  private readSince: number;
  private purgedAt = 0;
  private static readonly PURGE_EVERY_MS = 60_000;

  constructor(
    private readonly book: SessionBook,
    private readonly settings: SessionRegistrySettings,
    private readonly clock: () => Date,
    private readonly onError: (error: unknown) => void,
  ) {
    this.readSince = 0;
  }

  /** A new session for `playerId`, recorded in the book before its token is handed out. */
  async open(playerId: string, ttlSeconds: number): Promise<SessionClaims> {
    const now = this.clock();
    const iat = Math.floor(now.getTime() / 1000);
    const claims = { sessionId: randomUUID(), playerId, iat, exp: iat + ttlSeconds };
    await this.book.openSession({
      sessionId: claims.sessionId,
      playerId,
      createdAt: now.toISOString(),
      expiresAt: new Date(claims.exp * 1000).toISOString(),
    });
    this.lastSeen.set(claims.sessionId, now.getTime());
    return claims;
  }

  /** True the first time this launch token is used, on any instance; false ever after. */
  useLaunchToken(jti: string, expSeconds: number): Promise<boolean> {
    return this.book.useLaunchToken(jti, new Date(expSeconds * 1000).toISOString(), this.clock().toISOString());
  }

  /** Ends a session here at once, and on every instance within `pollMs`. */
  async revoke(claims: SessionClaims): Promise<void> {
    await this.book.revoke(claims.sessionId, this.clock().toISOString());
    this.revoked.set(claims.sessionId, claims.exp * 1000);
    this.lastSeen.delete(claims.sessionId);
    this.used.delete(claims.sessionId);
  }

  /**
   * Null when the session may be used (and notes the use), else why not. Synchronous
   * (no promise) whenever memory suffices, which is every request of a session in use.
   */
  check(claims: SessionClaims): SessionRefusal | null | Promise<SessionRefusal | null> {
    if (this.revoked.has(claims.sessionId)) return 'revoked';
    const idleMs = this.settings.idleSeconds * 1000;
    if (idleMs === 0) return null;
    const now = this.clock().getTime();
    const seen = Math.max(this.lastSeen.get(claims.sessionId) ?? 0, claims.iat * 1000);
    if (now - seen <= idleMs) {
      this.noteUse(claims.sessionId, now);
      return null;
    }
    return this.checkInBook(claims, now, idleMs);
  }

  private noteUse(sessionId: string, now: number): void {
    this.lastSeen.set(sessionId, now);
    this.used.add(sessionId);
  }

  private async checkInBook(claims: SessionClaims, now: number, idleMs: number): Promise<SessionRefusal | null> {
    const state = await this.book.state(claims.sessionId);
    if (state === null) return 'idle';
    if (state.revokedAt !== null) {
      this.revoked.set(claims.sessionId, claims.exp * 1000);
      return 'revoked';
    }
    if (now - Date.parse(state.lastSeenAt) > idleMs) return 'idle';
    this.noteUse(claims.sessionId, now);
    return null;
  }

  /** Of these players, those with a session used at or after `since`: this instance's uses written first. */
  async playersSeenSince(playerIds: readonly string[], since: string): Promise<Set<string>> {
    await this.flushUses();
    return this.book.playersSeenSince(playerIds, since);
  }

  /** Ends every session of these players: here at once, on every instance within `pollMs`. */
  async revokePlayers(playerIds: readonly string[], now: string): Promise<void> {
    await this.book.revokePlayers(playerIds, now);
    await this.sync();
  }

  /** Reads every session ended and not expired, then keeps in step every `pollMs`. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.sync();
    this.schedule();
  }

  /** Writes the last uses still unwritten, and stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
    await this.flushUses().catch(this.onError);
  }

  /** One exchange with the book: uses written, ended sessions read, the forgotten forgotten. */
  async sync(): Promise<void> {
    const now = this.clock();
    await this.flushUses();
    const since = new Date(Math.max(0, this.readSince - SessionRegistry.REVOKED_OVERLAP_MS)).toISOString();
    for (const ended of await this.book.revokedSince(since, now.toISOString())) {
      this.revoked.set(ended.sessionId, Date.parse(ended.expiresAt));
      this.lastSeen.delete(ended.sessionId);
    }
    this.readSince = now.getTime();
    this.forgetOld(now.getTime());
  }

  private async flushUses(): Promise<void> {
    if (this.used.size === 0) return;
    const uses = [...this.used].map((sessionId) => ({
      sessionId,
      lastSeenAt: new Date(this.lastSeen.get(sessionId) ?? 0).toISOString(),
    }));
    this.used.clear();
    await this.book.touch(uses);
  }

  /** Memory stays bounded: ended sessions past expiry, and sessions idle from here, are dropped. */
  private forgetOld(now: number): void {
    for (const [sessionId, expiresAt] of this.revoked) if (expiresAt <= now) this.revoked.delete(sessionId);
    const idleMs = this.settings.idleSeconds * 1000;
    const horizon = idleMs > 0 ? idleMs : 24 * 3600 * 1000;
    for (const [sessionId, seen] of this.lastSeen) {
      if (now - seen > horizon && !this.used.has(sessionId)) this.lastSeen.delete(sessionId);
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.inFlight = this.sync()
        .then(() => this.purgeNowAndThen())
        .catch(this.onError)
        .finally(() => {
          this.inFlight = null;
          if (!this.stopped) this.schedule();
        });
    }, this.settings.pollMs);
    this.timer.unref();
  }

  private async purgeNowAndThen(): Promise<void> {
    const now = this.clock().getTime();
    if (now - this.purgedAt < SessionRegistry.PURGE_EVERY_MS) return;
    this.purgedAt = now;
    await this.book.purgeExpired(new Date(now).toISOString());
  }

  async close(): Promise<void> {
    await this.stop();
    await this.book.close();
  }
}
