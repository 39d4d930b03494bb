import type { Cents } from './money.ts';
import type { StakeCents } from './stakes.ts';
import type { Segment } from './unit.ts';

/**
 * The HTTP API's data, shared by the server (which produces it) and the client
 * (which only shows it). Types only: the server decides every value.
 */

export const ERROR_CODES = [
  'INVALID_INPUT',
  'NO_SESSION',
  'INSUFFICIENT_BALANCE',
  'SALES_CLOSED',
  'SOLD_OUT',
  'PLAY_ID_REUSED',
  'NOT_FOUND',
  'RATE_LIMITED',
  /** An unexpected server fault (HTTP 500); nothing was changed. */
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiError {
  error: { code: ErrorCode; message: string };
}

export interface SessionResponse {
  token: string;
  playerId: string;
  balanceCents: Cents;
}

export interface PlayWheel {
  segments: Segment[];
  stop: number;
}

/** Which wheels the player has launched, in wheel order. */
export type Launched = [boolean, boolean, boolean, boolean];

export interface Play {
  playId: string;
  stakeCents: StakeCents;
  createdAt: string;
  wheels: PlayWheel[];
  jeu1: { bells: number; winCents: Cents };
  jeu2: { points: number; winCents: Cents };
  winCents: Cents;
  balanceBeforeCents: Cents;
  balanceAfterCents: Cents;
  launched: Launched;
  finished: boolean;
}

export interface StakeOffer {
  stakeCents: StakeCents;
  onSale: boolean;
}

export interface SalesWindow {
  open: boolean;
  opensAt: string | null;
  closesAt: string | null;
  message: string;
}

export interface AccountResponse {
  playerId: string;
  balanceCents: Cents;
  stakes: StakeOffer[];
  sales: SalesWindow;
  unfinishedPlay: Play | null;
}

export interface PlayResponse {
  play: Play;
  balanceCents: Cents;
}

export interface PlaysPage {
  plays: Play[];
  /** Pass as `before` for the next (older) page; null at the end. */
  nextBefore: string | null;
}

/** GET /api/client-config: what the browser client needs of the server's configuration. */
export interface ClientConfigResponse {
  /** Origins of the portal pages allowed to frame the game and to talk to it (postMessage). */
  portalOrigins: string[];
  /** Whether `POST /api/session {}` opens a demo player. */
  demoMode: boolean;
}
