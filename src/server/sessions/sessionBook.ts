/**
 * What every instance must agree on about sessions, kept in the database they share:
 * each session's last use and whether it was ended (logout), and the launch tokens
 * already used. Its own tables, its own migrations (sessionSchema.ts), its own connection:
 * nothing here touches the money's tables or their group commit.
 */

export interface SessionState {
  playerId: string;
  lastSeenAt: string;
  revokedAt: string | null;
}

export interface RevokedSession {
  sessionId: string;
  expiresAt: string;
}

export interface SessionBook {
  /** Records a new session (times as ISO 8601). */
  openSession(session: { sessionId: string; playerId: string; createdAt: string; expiresAt: string }): Promise<void>;
  /** True the first time `jti` is offered; false ever after (until `expiresAt` has passed). */
  useLaunchToken(jti: string, expiresAt: string, now: string): Promise<boolean>;
  /** Ends the session for every instance. */
  revoke(sessionId: string, now: string): Promise<void>;
  /** Moves each session's last use forward (never back). */
  touch(uses: readonly { sessionId: string; lastSeenAt: string }[]): Promise<void>;
  /** The session as the database knows it; null when it never was (or is long gone). */
  state(sessionId: string): Promise<SessionState | null>;
  /** Sessions ended at or after `since` that have not expired at `now`. */
  revokedSince(since: string, now: string): Promise<RevokedSession[]>;
  /** Of these players, those with a session used at or after `since` (a demo player in use is never purged). */
  playersSeenSince(playerIds: readonly string[], since: string): Promise<Set<string>>;
  /**
   * Ends every session of these players (a purged demo player's), for every instance; the rows
   * stay until they expire, so that each instance reads the revocation (revokedSince).
   */
  revokePlayers(playerIds: readonly string[], now: string): Promise<void>;
  /** Forgets sessions and launch tokens past their expiry. */
  purgeExpired(now: string): Promise<void>;
  close(): Promise<void>;
}
