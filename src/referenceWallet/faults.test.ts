import { describe, expect, it } from 'vitest';
import { getFullStatement, type WalletCall, type WalletRequests, type WalletResult } from '../walletApi/index.ts';
import { FaultPlan, NO_FAULTS, type FaultSettings } from './faults.ts';
import { betBody, settleBody, startTestWallet, TEST_SECRET, type TestWallet } from './testing.ts';

const faults = (settings: Partial<FaultSettings>): FaultSettings => ({ ...NO_FAULTS, ...settings });

describe('FaultPlan', () => {
  it('makes the same faults for the same seed and the given rates', () => {
    const settings = faults({
      seed: 42,
      latency: { rate: 0.1, minMs: 5, maxMs: 9 },
      errorRate: 0.05,
      lostAnswerRate: 0.2,
      duplicateRate: 0.3,
      refuse: { rate: 0.1, status: 'PLAYER_BLOCKED' },
    });
    const a = new FaultPlan(settings);
    const b = new FaultPlan(settings);
    const calls: WalletCall[] = ['bet', 'win', 'rollback', 'balance'];
    const decisions = Array.from({ length: 20_000 }, (_, i) => a.decide(calls[i % 4]!));
    expect(Array.from({ length: 20_000 }, (_, i) => b.decide(calls[i % 4]!))).toEqual(decisions);
    const share = (n: number, of = 20_000) => n / of;
    expect(share(a.counts.delayed)).toBeCloseTo(0.1, 1);
    expect(share(a.counts.errors)).toBeCloseTo(0.05, 1);
    // Lost answers, duplicates and refusals are drawn only for calls that did not fail first.
    expect(share(a.counts.lostAnswers, 20_000 - a.counts.errors)).toBeCloseTo(0.2, 1);
    expect(share(a.counts.duplicates, 20_000 - a.counts.errors)).toBeCloseTo(0.3, 1);
    const bets = decisions.filter((_, i) => i % 4 === 0);
    expect(share(bets.filter((d) => d.refuse).length, 5000)).toBeCloseTo(0.1, 1);
    expect(decisions.filter((d, i) => d.refuse && i % 4 !== 0)).toEqual([]);
    expect(decisions.every((d) => d.latencyMs === 0 || (d.latencyMs >= 5 && d.latencyMs <= 9))).toBe(true);
    expect(decisions.filter((d) => d.error && (d.lostAnswer || d.duplicate || d.refuse))).toEqual([]);
    expect(new Set(decisions.map((d) => d.latencyMs)).size).toBe(6);
    expect(a.counts.calls).toBe(20_000);
  });

  it('leaves calls out of scope alone, and every call when no rate is set', () => {
    const plan = new FaultPlan(faults({ calls: ['win'], errorRate: 1 }));
    expect(plan.decide('bet').error).toBe(false);
    expect(plan.decide('win').error).toBe(true);
    const none = new FaultPlan(NO_FAULTS);
    expect(Array.from({ length: 100 }, () => none.decide('bet')).some((d) => d.error || d.latencyMs)).toBe(false);
    expect(none.counts.calls).toBe(0);
  });
});

async function funded(wallet: TestWallet, playerId: string, cents: number) {
  expect((await wallet.admin.createAccount(playerId, { balanceCents: cents })).status).toBe('OK');
}

function balance(wallet: TestWallet, playerId: string): number {
  return wallet.ledger.view(playerId)!.balanceCents;
}

async function statementOf(wallet: TestWallet, playerId: string) {
  const full = await getFullStatement(wallet.url, TEST_SECRET, {
    from: '2000-01-01T00:00:00Z',
    to: '2100-01-01T00:00:00Z',
  });
  if (full.kind !== 'answer') throw new Error(full.reason);
  return full.transactions.filter((t) => t.playerId === playerId && t.kind !== 'deposit');
}

describe('fault mode over HTTP', () => {
  it('lost answer: the effect is applied, the caller sees unknown; its retry gets OK, the same transaction, one debit', async () => {
    const wallet = await startTestWallet({ faults: faults({ lostAnswerRate: 1 }) });
    try {
      await funded(wallet, 'lost', 1000);
      const bet = betBody('lost', 300);
      const lost = await wallet.call('bet', bet);
      expect(lost).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/connection failed/) });
      expect(balance(wallet, 'lost')).toBe(700); // applied although unanswered
      expect(wallet.server.faults.counts.lostAnswers).toBe(1);
      wallet.server.setFaults(NO_FAULTS);
      const retry = await wallet.call('bet', bet);
      const [entry] = await statementOf(wallet, 'lost');
      expect(retry).toEqual({
        kind: 'answer',
        status: 'OK',
        body: { status: 'OK', balanceCents: 700, transactionId: entry!.transactionId },
      });
      expect(await wallet.call('bet', bet)).toEqual(retry);
      expect(balance(wallet, 'lost')).toBe(700);
      expect(await statementOf(wallet, 'lost')).toHaveLength(1);
    } finally {
      await wallet.close();
    }
  });

  it('5xx before the effect: the caller sees unknown and nothing moved; the retry is the first real call', async () => {
    const wallet = await startTestWallet({ faults: faults({ errorRate: 1, errorStatus: 502 }) });
    try {
      await funded(wallet, 'fail', 1000);
      const bet = betBody('fail', 300);
      expect(await wallet.call('bet', bet)).toEqual({ kind: 'unknown', reason: 'HTTP 502' });
      expect(await wallet.call('bet', bet)).toEqual({ kind: 'unknown', reason: 'HTTP 502' });
      expect(balance(wallet, 'fail')).toBe(1000);
      expect(await statementOf(wallet, 'fail')).toEqual([]);
      wallet.server.setFaults(NO_FAULTS);
      expect(await wallet.call('bet', bet)).toMatchObject({ status: 'OK', body: { balanceCents: 700 } });
      expect(balance(wallet, 'fail')).toBe(700);
    } finally {
      await wallet.close();
    }
  });

  it('duplicated delivery: processed twice, absorbed by idempotency, answered once', async () => {
    const wallet = await startTestWallet({ faults: faults({ duplicateRate: 1 }) });
    try {
      await funded(wallet, 'dup', 1000);
      const bet = betBody('dup', 300);
      expect(await wallet.call('bet', bet)).toMatchObject({ status: 'OK', body: { balanceCents: 700 } });
      expect(await wallet.call('win', settleBody(bet, 500))).toMatchObject({
        status: 'OK',
        body: { balanceCents: 1200 },
      });
      expect(wallet.server.faults.counts.duplicates).toBe(2);
      expect(balance(wallet, 'dup')).toBe(1200);
      expect((await statementOf(wallet, 'dup')).map((t) => t.kind)).toEqual(['bet', 'win']);
    } finally {
      await wallet.close();
    }
  });

  it('refusals: new bets refused with the configured status, for good; wins and rollbacks never', async () => {
    const wallet = await startTestWallet({ faults: faults({ refuse: { rate: 1, status: 'LIMIT_REACHED' } }) });
    try {
      await funded(wallet, 'refused', 1000);
      const bet = betBody('refused', 300);
      expect(await wallet.call('bet', bet)).toMatchObject({ status: 'LIMIT_REACHED' });
      wallet.server.setFaults(NO_FAULTS);
      expect(await wallet.call('bet', bet)).toMatchObject({ status: 'LIMIT_REACHED' }); // a refusal is final
      const taken = betBody('refused', 300);
      expect(await wallet.call('bet', taken)).toMatchObject({ status: 'OK' });
      wallet.server.setFaults(faults({ refuse: { rate: 1, status: 'INSUFFICIENT_FUNDS' } }));
      expect(await wallet.call('bet', betBody('refused', 1))).toMatchObject({
        status: 'INSUFFICIENT_FUNDS',
        body: { balanceCents: 700 },
      });
      expect(await wallet.call('win', settleBody(taken, 100))).toMatchObject({
        status: 'OK',
        body: { balanceCents: 800 },
      });
      wallet.server.setFaults(faults({ refuse: { rate: 1, status: 'PLAYER_BLOCKED' } }));
      expect(await wallet.call('bet', betBody('refused', 1))).toMatchObject({ status: 'PLAYER_BLOCKED' });
      expect(balance(wallet, 'refused')).toBe(800);
    } finally {
      await wallet.close();
    }
  });

  it('latency: the call is late; past the caller’s timeout it is unknown, yet done, and its retry finds it', async () => {
    const wallet = await startTestWallet({ faults: faults({ latency: { rate: 1, minMs: 400, maxMs: 400 } }) });
    try {
      await funded(wallet, 'slow', 1000);
      const bet = betBody('slow', 300);
      const started = Date.now();
      expect(await wallet.call('bet', bet, { timeoutMs: 100 })).toEqual({
        kind: 'unknown',
        reason: 'no answer within 100 ms',
      });
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(balance(wallet, 'slow')).toBe(700);
      const retry = await wallet.call('bet', bet, { timeoutMs: 5000 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(800);
      expect(retry).toMatchObject({ status: 'OK', body: { balanceCents: 700 } });
      expect(await statementOf(wallet, 'slow')).toHaveLength(1);
    } finally {
      await wallet.close();
    }
  });

  it('can be set and read over the signed admin endpoint (for a wallet run as a process of its own)', async () => {
    const wallet = await startTestWallet();
    try {
      await funded(wallet, 'remote', 1000);
      const set = await wallet.admin.setFaults({ WALLET_FAULT_ERROR_RATE: 1, WALLET_FAULT_CALLS: 'bet' });
      expect(set).toMatchObject({ status: 'OK', faults: { errorRate: 1, calls: ['bet'] } });
      expect(await wallet.call('bet', betBody('remote', 100))).toEqual({ kind: 'unknown', reason: 'HTTP 503' });
      expect(await wallet.call('balance', { requestId: 'bal-remote', playerId: 'remote' })).toMatchObject({
        status: 'OK',
      });
      expect(await wallet.admin.faults()).toMatchObject({ status: 'OK', counts: { calls: 1, errors: 1 } });
      expect(await wallet.admin.setFaults({ WALLET_FAULT_ERROR_RATE: 2 })).toMatchObject({
        status: 'BAD_REQUEST',
        reason: expect.stringMatching(/WALLET_FAULT_ERROR_RATE must be a rate from 0 to 1/),
      });
      expect(await wallet.admin.setFaults({ PORT: 1 })).toMatchObject({ status: 'BAD_REQUEST' });
      expect(await wallet.admin.setFaults({})).toMatchObject({ status: 'OK', faults: NO_FAULTS });
      expect(await wallet.call('bet', betBody('remote', 100))).toMatchObject({
        status: 'OK',
        body: { balanceCents: 900 },
      });
    } finally {
      await wallet.close();
    }
  });

  /** A game server's way with a wallet: retry the same call until it is answered. */
  async function untilAnswered<C extends WalletCall>(wallet: TestWallet, call: C, body: WalletRequests[C]) {
    let unknowns = 0;
    for (;;) {
      const result: WalletResult<C> = await wallet.call(call, body, { timeoutMs: 5000 });
      if (result.kind === 'answer') return { result, unknowns };
      unknowns++;
    }
  }

  async function seededRun(seed: number) {
    const wallet = await startTestWallet({
      faults: faults({
        seed,
        latency: { rate: 0.2, minMs: 1, maxMs: 15 },
        errorRate: 0.15,
        lostAnswerRate: 0.15,
        duplicateRate: 0.2,
        refuse: { rate: 0.1, status: 'LIMIT_REACHED' },
      }),
    });
    try {
      await funded(wallet, 'mixed', 100_000);
      let expected = 100_000;
      let unknowns = 0;
      const statuses: string[] = [];
      for (let i = 0; i < 80; i++) {
        const bet = betBody('mixed', 100 * (1 + (i % 5)));
        const placed = await untilAnswered(wallet, 'bet', bet);
        unknowns += placed.unknowns;
        statuses.push(placed.result.status);
        if (placed.result.status !== 'OK') continue;
        expected -= bet.amountCents;
        const winCents = i % 3 === 0 ? 700 : 0;
        const paid = await untilAnswered(wallet, 'win', settleBody(bet, winCents));
        unknowns += paid.unknowns;
        expect(paid.result.status).toBe('OK');
        expected += winCents;
        expect(
          paid.result.kind === 'answer' && 'balanceCents' in paid.result.body && paid.result.body.balanceCents,
        ).toBe(expected);
      }
      const counts = { ...wallet.server.faults.counts };
      expect(unknowns).toBe(counts.errors + counts.lostAnswers);
      expect(balance(wallet, 'mixed')).toBe(expected);
      expect(wallet.ledger.checkBalances()).toEqual([]);
      const ok = statuses.filter((s) => s === 'OK').length;
      expect(await statementOf(wallet, 'mixed')).toHaveLength(ok * 2);
      return { counts, statuses, expected };
    } finally {
      await wallet.close();
    }
  }

  it('all faults at once, seeded: every effect once, the books exact, and the same run again for the same seed', async () => {
    const first = await seededRun(7);
    expect(first.counts.errors).toBeGreaterThan(0);
    expect(first.counts.lostAnswers).toBeGreaterThan(0);
    expect(first.counts.duplicates).toBeGreaterThan(0);
    expect(first.counts.refusals).toBeGreaterThan(0);
    expect(first.counts.delayed).toBeGreaterThan(0);
    expect(first.statuses).toContain('LIMIT_REACHED');
    expect(await seededRun(7)).toEqual(first);
  });
});
