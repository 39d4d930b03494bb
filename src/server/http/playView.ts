import type { Play } from '../../contract/api.ts';
import type { PlayRecord } from '../store/types.ts';

/** The player's view of a play: no block id, no position, nothing about other units. */
export function playView(record: PlayRecord): Play {
  return {
    playId: record.playId,
    stakeCents: record.stakeCents,
    createdAt: record.createdAt,
    wheels: record.unit.wheels.map((w) => ({ segments: w.segments, stop: w.stop })),
    jeu1: { bells: record.bells, winCents: record.jeu1WinCents },
    jeu2: { points: record.points, winCents: record.jeu2WinCents },
    winCents: record.winCents,
    balanceBeforeCents: record.balanceBeforeCents,
    balanceAfterCents: record.balanceAfterCents,
    launched: record.launched,
    finished: record.finished,
  };
}
