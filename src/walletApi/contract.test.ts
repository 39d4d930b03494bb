import { describe, expect, it } from 'vitest';
import { checkAnswer, checkRequest, checkStatement, WALLET_CALLS, WALLET_STATUSES } from './contract.ts';

const bet = { requestId: 'b-1', playerId: 'alice_42', roundId: 'play-1', amountCents: 200, currency: 'EUR' };
const win = { ...bet, requestId: 'w-1', betRequestId: 'b-1', amountCents: 0 };

describe('checkRequest', () => {
  it('accepts the contract bodies and gives them back in the contract order', () => {
    expect(checkRequest('balance', { playerId: 'p', requestId: 'r' })).toEqual({
      ok: true,
      value: { requestId: 'r', playerId: 'p' },
    });
    const reordered = { currency: 'EUR', amountCents: 200, roundId: 'play-1', playerId: 'alice_42', requestId: 'b-1' };
    const checked = checkRequest('bet', reordered);
    expect(checked.ok && JSON.stringify(checked.value)).toBe(JSON.stringify(bet));
    expect(checkRequest('win', win).ok).toBe(true);
    expect(checkRequest('rollback', { ...win, requestId: 'rb-1', amountCents: 200 }).ok).toBe(true);
  });

  it('refuses with a reason naming the problem', () => {
    const reason = (call: Parameters<typeof checkRequest>[0], body: unknown) => {
      const checked = checkRequest(call, body);
      return checked.ok ? null : checked.reason;
    };
    expect(reason('bet', null)).toBe('the bet body must be a JSON object');
    expect(reason('bet', [bet])).toBe('the bet body must be a JSON object');
    expect(reason('bet', { ...bet, extra: 1 })).toBe('unexpected field extra in a bet body');
    expect(reason('balance', { requestId: 'r', playerId: 'p', roundId: 'x' })).toMatch(/unexpected field roundId/);
    const { roundId: _, ...noRound } = bet;
    expect(reason('bet', noRound)).toBe('roundId is missing');
    expect(reason('bet', { ...bet, amountCents: 0 })).toMatch(/amountCents must be a whole number of cents from 1/);
    expect(reason('bet', { ...bet, amountCents: 1.5 })).toMatch(/amountCents/);
    expect(reason('bet', { ...bet, amountCents: '200' })).toMatch(/amountCents/);
    expect(reason('bet', { ...bet, amountCents: -5 })).toMatch(/amountCents/);
    expect(reason('bet', { ...bet, amountCents: 1e11 })).toMatch(/amountCents/);
    expect(reason('win', { ...win, amountCents: -1 })).toMatch(/from 0/);
    expect(reason('rollback', { ...win, amountCents: 0 })).toMatch(/from 1/);
    expect(reason('bet', { ...bet, currency: 'USD' })).toBe('currency must be "EUR"');
    expect(reason('bet', { ...bet, playerId: '../x' })).toMatch(/playerId/);
    expect(reason('bet', { ...bet, playerId: 'x'.repeat(65) })).toMatch(/playerId/);
    expect(reason('bet', { ...bet, requestId: '' })).toMatch(/requestId/);
    expect(reason('win', { ...win, betRequestId: 'a b' })).toMatch(/betRequestId/);
  });
});

describe('checkAnswer', () => {
  it('knows every status of every call and the fields each carries', () => {
    for (const call of WALLET_CALLS) {
      for (const status of WALLET_STATUSES[call]) {
        const body = { status, balanceCents: 5, transactionId: 'wtx-1', extra: true };
        const checked = checkAnswer(call, body);
        expect(checked.ok, `${call} ${status}`).toBe(true);
      }
    }
    expect(checkAnswer('bet', { status: 'OK', balanceCents: 5, transactionId: 't', extra: 1 })).toEqual({
      ok: true,
      value: { status: 'OK', balanceCents: 5, transactionId: 't' },
    });
    expect(checkAnswer('rollback', { status: 'OK', balanceCents: 5 })).toEqual({
      ok: true,
      value: { status: 'OK', balanceCents: 5 },
    });
    expect(checkAnswer('bet', { status: 'INSUFFICIENT_FUNDS', balanceCents: 3 }).ok).toBe(true);
  });

  it('refuses a status the call cannot answer and missing or ill-typed fields', () => {
    expect(checkAnswer('win', { status: 'BET_SETTLED' }).ok).toBe(false);
    expect(checkAnswer('balance', { status: 'ROLLED_BACK' }).ok).toBe(false);
    expect(checkAnswer('bet', { status: 'OK', balanceCents: 5 }).ok).toBe(false);
    expect(checkAnswer('bet', { status: 'OK', balanceCents: -1, transactionId: 't' }).ok).toBe(false);
    expect(checkAnswer('bet', { status: 'INSUFFICIENT_FUNDS' }).ok).toBe(false);
    expect(checkAnswer('balance', { status: 'OK', balanceCents: '5' }).ok).toBe(false);
    expect(checkAnswer('win', { status: 'OK', balanceCents: 5, transactionId: '' }).ok).toBe(false);
    expect(checkAnswer('balance', 'OK').ok).toBe(false);
    expect(checkAnswer('balance', { status: 'ok', balanceCents: 5 }).ok).toBe(false);
  });
});

describe('checkStatement', () => {
  const entry = {
    seq: 1,
    transactionId: 'wtx-1',
    kind: 'bet',
    requestId: 'b-1',
    playerId: 'p',
    roundId: 'r',
    betRequestId: null,
    amountCents: 100,
    movedCents: -100,
    balanceAfterCents: 900,
    createdAt: '2026-11-30T10:00:00.000Z',
  };
  const page = { status: 'OK', from: 'a', to: 'b', transactions: [entry], next: null };

  it('accepts a page and refuses a broken one', () => {
    expect(checkStatement(page).ok).toBe(true);
    expect(checkStatement({ ...page, next: 1 }).ok).toBe(true);
    expect(checkStatement({ ...page, status: 'INVALID_SIGNATURE' }).ok).toBe(false);
    expect(checkStatement({ ...page, transactions: [{ ...entry, kind: 'gift' }] }).ok).toBe(false);
    expect(checkStatement({ ...page, transactions: [{ ...entry, movedCents: 0.5 }] }).ok).toBe(false);
    expect(checkStatement({ ...page, transactions: [{ ...entry, roundId: 3 }] }).ok).toBe(false);
    expect(checkStatement({ ...page, transactions: 'none' }).ok).toBe(false);
  });
});
