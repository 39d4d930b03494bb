import { describe, expect, it } from 'vitest';
import { BalanceEvents, ErrorEvents, RoundEvents, type Emit } from './gameEvents.ts';
import type { GameEventPayloads, GameEventType } from './protocol.ts';

function recorder() {
  const events: { type: GameEventType; payload: GameEventPayloads[GameEventType] }[] = [];
  const emit: Emit = (type, payload) => void events.push({ type, payload });
  return { events, emit };
}

const play = (playId: string, winCents = 0) => ({
  playId,
  stakeCents: 200 as const,
  winCents,
  balanceAfterCents: 10_000 - 200 + winCents,
});

describe('RoundEvents', () => {
  it('reports a bought round once when it starts and once when it is revealed', () => {
    const { events, emit } = recorder();
    const r = new RoundEvents(emit);
    const p = play('a', 1_000);
    r.changed({ phase: 'idle', play: null });
    r.changed({ phase: 'buying', play: null });
    r.changed({ phase: 'ready', play: p });
    r.changed({ phase: 'spinning', play: p });
    r.changed({ phase: 'spinning', play: p });
    r.changed({ phase: 'revealed', play: p });
    r.changed({ phase: 'revealed', play: p });
    r.changed({ phase: 'idle', play: null });
    expect(events).toEqual([
      { type: 'roundStarted', payload: { playId: 'a', stakeCents: 200, resumed: false } },
      { type: 'roundEnded', payload: { playId: 'a', winCents: 1_000, balanceCents: 10_800 } },
    ]);
  });

  it('marks a round found unfinished at start-up as resumed, even one already fully launched', () => {
    const { events, emit } = recorder();
    const r = new RoundEvents(emit);
    r.changed({ phase: 'revealed', play: play('b') });
    expect(events).toEqual([
      { type: 'roundStarted', payload: { playId: 'b', stakeCents: 200, resumed: true } },
      { type: 'roundEnded', payload: { playId: 'b', winCents: 0, balanceCents: 9_800 } },
    ]);
  });

  it('reports a failed purchase as nothing', () => {
    const { events, emit } = recorder();
    const r = new RoundEvents(emit);
    r.changed({ phase: 'idle', play: null });
    r.changed({ phase: 'buying', play: null });
    r.changed({ phase: 'idle', play: null });
    expect(events).toEqual([]);
  });
});

describe('BalanceEvents', () => {
  it('sends the value the player ends up seeing, once per change', () => {
    const { events, emit } = recorder();
    const pending: (() => void)[] = [];
    const b = new BalanceEvents(emit, (flush) => void pending.push(flush));
    const runTask = () => pending.splice(0).forEach((f) => f());
    b.shown(null);
    runTask();
    b.shown(10_000);
    runTask();
    b.shown(10_000);
    runTask();
    // Revealing a round redraws with the old balance, then the new one, in the same task.
    b.shown(9_800);
    runTask();
    b.shown(10_000);
    b.shown(10_800);
    runTask();
    expect(events.map((e) => e.payload)).toEqual([
      { balanceCents: 10_000 },
      { balanceCents: 9_800 },
      { balanceCents: 10_800 },
    ]);
  });

  it('coalesces on the microtask queue by default', async () => {
    const { events, emit } = recorder();
    const b = new BalanceEvents(emit);
    b.shown(1);
    b.shown(2);
    expect(events).toEqual([]);
    await Promise.resolve();
    expect(events).toEqual([{ type: 'balanceChanged', payload: { balanceCents: 2 } }]);
  });
});

describe('ErrorEvents', () => {
  it('reports server and network failures, a repeated one only after a success', () => {
    const { events, emit } = recorder();
    const e = new ErrorEvents(emit);
    const noSession = {
      ok: false,
      kind: 'server',
      code: 'NO_SESSION',
      message: 'the launch token has expired',
    } as const;
    e.outcome(noSession);
    e.outcome(noSession);
    e.outcome({ ok: false, kind: 'network', message: 'timeout' });
    e.outcome({ ok: true });
    e.outcome({ ok: false, kind: 'network', message: 'timeout' });
    expect(events.map((x) => x.payload)).toEqual([
      { code: 'NO_SESSION', message: 'the launch token has expired' },
      { code: 'NETWORK', message: 'timeout' },
      { code: 'NETWORK', message: 'timeout' },
    ]);
  });
});
