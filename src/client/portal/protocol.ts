/**
 * The portal bridge's messages, as plain data (no DOM). See docs/portal.md.
 *
 * Game → portal: `{ source: 'spincake', version: 1, type, payload }`.
 * Portal → game: `{ source: 'spincake-portal', type, payload }`.
 * Two different sources, so that neither side ever mistakes its own messages (or the
 * other direction's) for commands.
 */

export const GAME_SOURCE = 'spincake';
export const PORTAL_SOURCE = 'spincake-portal';
export const PROTOCOL_VERSION = 1;

/** What the game tells the portal. Amounts are integer cents, as everywhere in SPINCAKE. */
export interface GameEventPayloads {
  /** The game is playable and listens to commands; `muted` is its sound state now. */
  ready: { muted: boolean };
  /** The balance the player sees changed (never ahead of the wheels: a win shows once revealed). */
  balanceChanged: { balanceCents: number };
  /** A unit is on the table: just bought, or `resumed` after a reload. */
  roundStarted: { playId: string; stakeCents: number; resumed: boolean };
  /** All four wheels stopped: the round's total win and the balance after it. */
  roundEnded: { playId: string; winCents: number; balanceCents: number };
  /** A purchase or the session failed: the server's error code (or NETWORK), and its message. */
  error: { code: string; message: string };
  /**
   * The player pressed « Alimenter mon compte »: the balance pays no stake on sale. The
   * portal opens its own deposit page (the game never handles money itself).
   */
  deposit: { balanceCents: number; minStakeCents: number };
}

export type GameEventType = keyof GameEventPayloads;

export interface GameEvent<T extends GameEventType = GameEventType> {
  source: typeof GAME_SOURCE;
  version: typeof PROTOCOL_VERSION;
  type: T;
  payload: GameEventPayloads[T];
}

export function gameEvent<T extends GameEventType>(type: T, payload: GameEventPayloads[T]): GameEvent<T> {
  return { source: GAME_SOURCE, version: PROTOCOL_VERSION, type, payload };
}

/** What the portal may ask of the game. */
export type PortalCommand =
  | { type: 'mute'; muted: boolean }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'resize'; width: number; height: number };

/** Largest size a `resize` may ask for, in CSS pixels (anything bigger is a mistake). */
export const MAX_SIZE_PX = 10_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_SIZE_PX;
}

/**
 * A portal command from a message's data, or null for anything else: other sources,
 * unknown types, missing or ill-typed payloads. Nothing malformed is ever half-applied.
 */
export function parsePortalCommand(data: unknown): PortalCommand | null {
  if (!isRecord(data) || data.source !== PORTAL_SOURCE || typeof data.type !== 'string') return null;
  const payload = data.payload === undefined ? {} : data.payload;
  if (!isRecord(payload)) return null;
  switch (data.type) {
    case 'mute':
      return typeof payload.muted === 'boolean' ? { type: 'mute', muted: payload.muted } : null;
    case 'pause':
    case 'resume':
      return { type: data.type };
    case 'resize':
      return isSize(payload.width) && isSize(payload.height)
        ? { type: 'resize', width: payload.width, height: payload.height }
        : null;
    default:
      return null;
  }
}

/** An origin as the browser writes it in MessageEvent.origin (`scheme://host[:port]`), or null. */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Exact match only: no wildcards, no suffixes, and the opaque origin "null" is never allowed. */
export function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  return origin !== 'null' && allowed.includes(origin);
}

/**
 * Where the game's messages may go. When the browser tells us the parent's origin (from
 * `location.ancestorOrigins` or the referrer), only that origin, and only if it is
 * allowed; otherwise every allowed origin — postMessage delivers to the one that
 * matches the parent and drops the rest. Never '*'.
 */
export function targetOrigins(allowed: readonly string[], parentOrigin: string | null): string[] {
  if (parentOrigin !== null) return isAllowedOrigin(parentOrigin, allowed) ? [parentOrigin] : [];
  return allowed.filter((o) => o !== 'null' && o !== '*');
}
