/**
 * A portal player's id in the game is the operator's id under a prefix of its own, so that
 * no portal id can name a demo player; the operator's wallet knows the player by the
 * operator's id alone.
 */
export const PORTAL_PLAYER_PREFIX = 'portal-';

export function portalPlayerId(operatorPlayerId: string): string {
  return PORTAL_PLAYER_PREFIX + operatorPlayerId;
}

/** The operator's own id of a portal player; null for any other player. */
export function operatorPlayerId(playerId: string): string | null {
  return playerId.startsWith(PORTAL_PLAYER_PREFIX) ? playerId.slice(PORTAL_PLAYER_PREFIX.length) : null;
}
