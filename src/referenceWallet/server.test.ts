import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../common/seededRandom.ts';
import {
  getFullStatement,
  KEY_ID_HEADER,
  SIGNATURE_HEADER,
  signedHeaders,
  signMessage,
  singleKeyring,
  TIMESTAMP_HEADER,
  verifyMessage,
  type WalletRequests,
} from '../walletApi/index.ts';
import { walletAdmin } from './adminClient.ts';
import { betBody, id, settleBody, startTestWallet, TEST_SECRET, type TestWallet } from './testing.ts';

let wallet: TestWallet;
let clock = new Date('2026-11-30T10:00:00.000Z');

beforeAll(async () => {
  wallet = await startTestWallet({ ledger: { now: () => clock } });
});
afterAll(() => wallet.close());

async function account(playerId: string, balanceCents: number, extra: object = {}) {
  const created = await wallet.admin.createAccount(playerId, { balanceCents, ...extra });
  expect(created.status).toBe('OK');
}

async function balanceOf(playerId: string): Promise<number> {
  const answer = await wallet.admin.account(playerId);
  if (answer.status !== 'OK' || !('account' in answer)) throw new Error(`no account ${playerId}`);
  return answer.account.balanceCents;
}

const ring = singleKeyring(TEST_SECRET);

/** The headers that sign `raw` for `path` as the game signs it (version 2), now or `at` (unix seconds). */
function signingHeaders(secret: string, raw: string, path = '/bet', at = Math.floor(Date.now() / 1000)) {
  return { [TIMESTAMP_HEADER]: String(at), [SIGNATURE_HEADER]: signMessage(secret, path, at, raw) };
}

/** POST a raw body with the given signing headers (or none); whether the answer is signed for `path`. */
async function rawPost(path: string, raw: string, signing?: Record<string, string>) {
  const response = await fetch(`${wallet.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signing },
    body: raw,
  });
  const text = await response.text();
  const verified = verifyMessage(ring, path, text, {
    timestamp: response.headers.get(TIMESTAMP_HEADER),
    signature: response.headers.get(SIGNATURE_HEADER),
    keyId: response.headers.get(KEY_ID_HEADER),
  });
  return { status: response.status, text, signed: verified.ok };
}

describe('balance', () => {
  it('answers OK, UNKNOWN_PLAYER and PLAYER_BLOCKED', async () => {
    await account('bal-1', 1234);
    await account('bal-blocked', 50, { blocked: true });
    expect(await wallet.call('balance', { requestId: id('b'), playerId: 'bal-1' })).toEqual({
      kind: 'answer',
      status: 'OK',
      body: { status: 'OK', balanceCents: 1234 },
    });
    expect(await wallet.call('balance', { requestId: id('b'), playerId: 'nobody' })).toMatchObject({
      status: 'UNKNOWN_PLAYER',
    });
    expect(await wallet.call('balance', { requestId: id('b'), playerId: 'bal-blocked' })).toMatchObject({
      status: 'PLAYER_BLOCKED',
    });
  });
});

describe('bet', () => {
  it('answers OK with the new balance and a transaction id, and debits once', async () => {
    await account('bet-ok', 1000);
    const bet = betBody('bet-ok', 300);
    const result = await wallet.call('bet', bet);
    expect(result).toMatchObject({ kind: 'answer', status: 'OK', body: { balanceCents: 700 } });
    expect(result.kind === 'answer' && 'transactionId' in result.body && result.body.transactionId).toMatch(
      /^wtx-\d+$/,
    );
    expect(await balanceOf('bet-ok')).toBe(700);
  });

  it('answers INSUFFICIENT_FUNDS with the balance, and never goes below zero', async () => {
    await account('bet-poor', 250);
    expect(await wallet.call('bet', betBody('bet-poor', 300))).toMatchObject({
      status: 'INSUFFICIENT_FUNDS',
      body: { status: 'INSUFFICIENT_FUNDS', balanceCents: 250 },
    });
    expect(await wallet.call('bet', betBody('bet-poor', 250))).toMatchObject({
      status: 'OK',
      body: { balanceCents: 0 },
    });
    expect(await wallet.call('bet', betBody('bet-poor', 1))).toMatchObject({ status: 'INSUFFICIENT_FUNDS' });
    expect(await balanceOf('bet-poor')).toBe(0);
  });

  it('answers LIMIT_REACHED beyond the daily stake limit, counting only standing bets of the UTC day', async () => {
    await account('bet-limited', 10_000, { dailyStakeLimitCents: 500 });
    const first = betBody('bet-limited', 300);
    expect(await wallet.call('bet', first)).toMatchObject({ status: 'OK' });
    expect(await wallet.call('bet', betBody('bet-limited', 300))).toMatchObject({ status: 'LIMIT_REACHED' });
    expect(await wallet.call('bet', betBody('bet-limited', 200))).toMatchObject({ status: 'OK' });
    expect(await wallet.call('bet', betBody('bet-limited', 1))).toMatchObject({ status: 'LIMIT_REACHED' });
    // A rolled-back bet no longer counts.
    expect(await wallet.call('rollback', settleBody(first, 300))).toMatchObject({ status: 'OK' });
    expect(await wallet.call('bet', betBody('bet-limited', 300))).toMatchObject({ status: 'OK' });
    // The next UTC day starts afresh.
    clock = new Date('2026-12-01T00:00:00.000Z');
    try {
      expect(await wallet.call('bet', betBody('bet-limited', 500))).toMatchObject({ status: 'OK' });
    } finally {
      clock = new Date('2026-11-30T10:00:00.000Z');
    }
    expect(await balanceOf('bet-limited')).toBe(10_000 - 200 - 300 - 500);
  });

  it('answers PLAYER_BLOCKED and UNKNOWN_PLAYER, and moves nothing', async () => {
    await account('bet-blocked', 1000);
    expect((await wallet.admin.block('bet-blocked', true)).status).toBe('OK');
    expect(await wallet.call('bet', betBody('bet-blocked', 100))).toMatchObject({ status: 'PLAYER_BLOCKED' });
    expect(await wallet.call('bet', betBody('nobody', 100))).toMatchObject({ status: 'UNKNOWN_PLAYER' });
    expect((await wallet.admin.block('bet-blocked', false)).status).toBe('OK');
    expect(await wallet.call('bet', betBody('bet-blocked', 100))).toMatchObject({ status: 'OK' });
    expect(await balanceOf('bet-blocked')).toBe(900);
  });

  it('answers ROLLED_BACK to a bet whose rollback came first, for good', async () => {
    await account('bet-late', 1000);
    const bet = betBody('bet-late', 400);
    const rollback = settleBody(bet, 400);
    expect(await wallet.call('rollback', rollback)).toEqual({
      kind: 'answer',
      status: 'OK',
      body: { status: 'OK', balanceCents: 1000 },
    });
    expect(await wallet.call('bet', bet)).toMatchObject({ status: 'ROLLED_BACK' });
    expect(await wallet.call('bet', bet)).toMatchObject({ status: 'ROLLED_BACK' });
    // The rollback again: same answer; a win on it: no such bet.
    expect(await wallet.call('rollback', rollback)).toMatchObject({ status: 'OK', body: { balanceCents: 1000 } });
    expect(await wallet.call('win', settleBody(bet, 900))).toMatchObject({ status: 'UNKNOWN_BET' });
    expect(await balanceOf('bet-late')).toBe(1000);
  });
});

describe('win', () => {
  it('answers OK and credits, a losing unit (0) included', async () => {
    await account('win-1', 1000);
    const bet = betBody('win-1', 200);
    await wallet.call('bet', bet);
    const win = await wallet.call('win', settleBody(bet, 1400));
    expect(win).toMatchObject({
      status: 'OK',
      body: { balanceCents: 2200, transactionId: expect.stringMatching(/^wtx-/) },
    });
    const lost = betBody('win-1', 200);
    await wallet.call('bet', lost);
    expect(await wallet.call('win', settleBody(lost, 0))).toMatchObject({ status: 'OK', body: { balanceCents: 2000 } });
  });

  it('answers UNKNOWN_BET for a bet never taken, refused, rolled back, or of another player or round', async () => {
    await account('win-2', 1000);
    expect(await wallet.call('win', settleBody(betBody('win-2', 100), 100))).toMatchObject({ status: 'UNKNOWN_BET' });
    const refused = betBody('win-2', 5000);
    expect(await wallet.call('bet', refused)).toMatchObject({ status: 'INSUFFICIENT_FUNDS' });
    expect(await wallet.call('win', settleBody(refused, 100))).toMatchObject({ status: 'UNKNOWN_BET' });
    const bet = betBody('win-2', 100);
    await wallet.call('bet', bet);
    expect(await wallet.call('win', { ...settleBody(bet, 100), roundId: 'another-round' })).toMatchObject({
      status: 'UNKNOWN_BET',
    });
    await account('win-2b', 0);
    expect(await wallet.call('win', { ...settleBody(bet, 100), playerId: 'win-2b' })).toMatchObject({
      status: 'UNKNOWN_BET',
    });
    // Win after rollback.
    expect(await wallet.call('rollback', settleBody(bet, 100))).toMatchObject({
      status: 'OK',
      body: { balanceCents: 1000 },
    });
    expect(await wallet.call('win', settleBody(bet, 100))).toMatchObject({ status: 'UNKNOWN_BET' });
    expect(await balanceOf('win-2')).toBe(1000);
    expect(await balanceOf('win-2b')).toBe(0);
  });

  it('is accepted for a player blocked since the bet, and so is a rollback', async () => {
    await account('win-blocked', 1000);
    const bet = betBody('win-blocked', 100);
    const other = betBody('win-blocked', 100);
    await wallet.call('bet', bet);
    await wallet.call('bet', other);
    await wallet.admin.block('win-blocked', true);
    expect(await wallet.call('win', settleBody(bet, 500))).toMatchObject({
      status: 'OK',
      body: { balanceCents: 1300 },
    });
    expect(await wallet.call('rollback', settleBody(other, 100))).toMatchObject({
      status: 'OK',
      body: { balanceCents: 1400 },
    });
  });

  it('refuses a second win on a settled bet with HTTP 409 (outside the contract: unknown to the caller)', async () => {
    await account('win-twice', 1000);
    const bet = betBody('win-twice', 100);
    await wallet.call('bet', bet);
    await wallet.call('win', settleBody(bet, 100));
    const second = await wallet.call('win', settleBody(bet, 100));
    expect(second).toEqual({ kind: 'unknown', reason: 'HTTP 409' });
    expect(await balanceOf('win-twice')).toBe(1000);
  });
});

describe('rollback', () => {
  it('reverses a bet once; BET_SETTLED once a win was paid on it', async () => {
    await account('rb-1', 1000);
    const bet = betBody('rb-1', 300);
    await wallet.call('bet', bet);
    expect(await wallet.call('rollback', settleBody(bet, 300))).toMatchObject({
      status: 'OK',
      body: { balanceCents: 1000 },
    });
    // Another rollback of the same bet (another requestId): nothing more to reverse.
    expect(await wallet.call('rollback', settleBody(bet, 300))).toMatchObject({
      status: 'OK',
      body: { balanceCents: 1000 },
    });
    const won = betBody('rb-1', 300);
    await wallet.call('bet', won);
    await wallet.call('win', settleBody(won, 0));
    expect(await wallet.call('rollback', settleBody(won, 300))).toMatchObject({ status: 'BET_SETTLED' });
    expect(await balanceOf('rb-1')).toBe(700);
  });

  it('refuses a rollback that names the bet with another amount, player or round (409, nothing moves)', async () => {
    await account('rb-2', 1000);
    const bet = betBody('rb-2', 300);
    await wallet.call('bet', bet);
    expect((await wallet.call('rollback', settleBody(bet, 200))).kind).toBe('unknown');
    expect((await wallet.call('rollback', { ...settleBody(bet, 300), roundId: 'x' })).kind).toBe('unknown');
    expect(await balanceOf('rb-2')).toBe(700);
  });
});

describe('idempotency on requestId', () => {
  it('gives the same answer again and changes nothing', async () => {
    await account('idem-1', 1000);
    const bet = betBody('idem-1', 100);
    const first = await wallet.call('bet', bet);
    const again = await wallet.call('bet', bet);
    expect(again).toEqual(first);
    const win = settleBody(bet, 700);
    const paid = await wallet.call('win', win);
    expect(await wallet.call('win', win)).toEqual(paid);
    expect(await balanceOf('idem-1')).toBe(1600);
    // A refusal is final too: the same bet again answers the same refusal even once funds are there.
    const big = betBody('idem-1', 5000);
    expect(await wallet.call('bet', big)).toMatchObject({ status: 'INSUFFICIENT_FUNDS', body: { balanceCents: 1600 } });
    await wallet.admin.adjust('idem-1', 10_000);
    expect(await wallet.call('bet', big)).toMatchObject({ status: 'INSUFFICIENT_FUNDS', body: { balanceCents: 1600 } });
    expect(await balanceOf('idem-1')).toBe(11_600);
  });

  it('answers REQUEST_ID_REUSED to the same requestId with another body or call, and changes nothing', async () => {
    await account('idem-2', 1000);
    const bet = betBody('idem-2', 100);
    await wallet.call('bet', bet);
    expect(await wallet.call('bet', { ...bet, amountCents: 200 })).toMatchObject({ status: 'REQUEST_ID_REUSED' });
    expect(await wallet.call('balance', { requestId: bet.requestId, playerId: 'idem-2' })).toMatchObject({
      status: 'REQUEST_ID_REUSED',
    });
    expect(await wallet.call('win', { ...settleBody(bet, 5), requestId: bet.requestId })).toMatchObject({
      status: 'REQUEST_ID_REUSED',
    });
    expect(await balanceOf('idem-2')).toBe(900);
  });

  it('compares bodies as the contract reads them: key order and spacing do not matter', async () => {
    await account('idem-3', 1000);
    const bet = betBody('idem-3', 100);
    const first = JSON.stringify(bet);
    const second = `{ "currency": "EUR", "amountCents": 100, "roundId": "${bet.roundId}", "playerId": "idem-3", "requestId": "${bet.requestId}" }`;
    const a = await rawPost('/bet', first, signingHeaders(TEST_SECRET, first));
    const b = await rawPost('/bet', second, signingHeaders(TEST_SECRET, second));
    expect(JSON.parse(a.text)).toMatchObject({ status: 'OK', requestId: bet.requestId });
    expect(b.text).toBe(a.text);
    expect(await balanceOf('idem-3')).toBe(900);
  });
});

describe('signatures and bad requests', () => {
  it('answers INVALID_SIGNATURE (HTTP 200, signed) to a missing, wrong or uppercase signature, and does nothing', async () => {
    await account('sig-1', 1000);
    const raw = JSON.stringify(betBody('sig-1', 100));
    const upper = signingHeaders(TEST_SECRET, raw);
    upper[SIGNATURE_HEADER] = upper[SIGNATURE_HEADER]!.toUpperCase();
    for (const signing of [undefined, signingHeaders(`${TEST_SECRET}!`, raw), upper]) {
      const answer = await rawPost('/bet', raw, signing);
      expect(answer).toEqual({ status: 200, text: '{"status":"INVALID_SIGNATURE"}', signed: true });
    }
    expect(await balanceOf('sig-1')).toBe(1000);
    const good = await rawPost('/bet', raw, signingHeaders(TEST_SECRET, raw));
    expect(good.signed).toBe(true);
    expect(JSON.parse(good.text)).toMatchObject({ status: 'OK', balanceCents: 900 });
  });

  it('refuses a request signed for another path: a signed rollback is no win (nothing paid)', async () => {
    await account('sig-path', 1000);
    const bet = betBody('sig-path', 100);
    expect(await wallet.call('bet', bet)).toMatchObject({ status: 'OK', body: { balanceCents: 900 } });
    // A rollback, signed as the game signs it for /rollback, replayed at /win: the same body shape.
    const rollback = JSON.stringify(settleBody(bet, 100));
    const atWin = await rawPost('/win', rollback, signingHeaders(TEST_SECRET, rollback, '/rollback'));
    expect(atWin).toEqual({ status: 200, text: '{"status":"INVALID_SIGNATURE"}', signed: true });
    expect(await balanceOf('sig-path')).toBe(900);
    // Sent where it was signed for, it is taken.
    const taken = await rawPost('/rollback', rollback, signingHeaders(TEST_SECRET, rollback, '/rollback'));
    expect(JSON.parse(taken.text)).toMatchObject({ status: 'OK', balanceCents: 1000 });
    expect(taken.signed).toBe(true);
    expect(await balanceOf('sig-path')).toBe(1000);
  });

  it('refuses a request signed more than 300 s ago or ahead, and takes one within the window', async () => {
    await account('sig-stale', 1000);
    const now = Math.floor(Date.now() / 1000);
    for (const at of [now - 301, now + 301, now - 86_400]) {
      const raw = JSON.stringify(betBody('sig-stale', 100));
      const answer = await rawPost('/bet', raw, signingHeaders(TEST_SECRET, raw, '/bet', at));
      expect(answer).toEqual({ status: 200, text: '{"status":"INVALID_SIGNATURE"}', signed: true });
    }
    expect(await balanceOf('sig-stale')).toBe(1000);
    const raw = JSON.stringify(betBody('sig-stale', 100));
    const fresh = await rawPost('/bet', raw, signingHeaders(TEST_SECRET, raw, '/bet', now - 290));
    expect(JSON.parse(fresh.text)).toMatchObject({ status: 'OK', balanceCents: 900 });
    expect(await balanceOf('sig-stale')).toBe(900);
  });

  it('names the request it answers, so that a recorded answer cannot pass for another call', async () => {
    await account('sig-name', 1000);
    const bet = betBody('sig-name', 100);
    const raw = JSON.stringify(bet);
    const answer = await rawPost('/bet', raw, signingHeaders(TEST_SECRET, raw));
    expect(JSON.parse(answer.text)).toEqual({
      status: 'OK',
      balanceCents: 900,
      transactionId: expect.stringMatching(/^wtx-/),
      requestId: bet.requestId,
    });
    // The same call again: the same answer, byte for byte, and a fresh signature.
    expect((await rawPost('/bet', raw, signingHeaders(TEST_SECRET, raw))).text).toBe(answer.text);
  });

  it('answers INVALID_SIGNATURE and REQUEST_ID_REUSED on every call', async () => {
    await account('sig-all', 1000);
    const bet = betBody('sig-all', 100);
    await wallet.call('bet', bet);
    const bodies = {
      balance: { requestId: id('bal'), playerId: 'sig-all' },
      bet: betBody('sig-all', 100),
      win: settleBody(bet, 100),
      rollback: settleBody(bet, 100),
    };
    for (const [call, body] of Object.entries(bodies)) {
      const raw = JSON.stringify(body);
      expect(await rawPost(`/${call}`, raw, signingHeaders('x'.repeat(32), raw, `/${call}`)), call).toEqual({
        status: 200,
        text: '{"status":"INVALID_SIGNATURE"}',
        signed: true,
      });
      // The requestId of the bet above, used again with this call's body.
      const reused = JSON.stringify({ ...body, requestId: bet.requestId });
      const answer = await rawPost(`/${call}`, reused, signingHeaders(TEST_SECRET, reused, `/${call}`));
      expect(answer.text, call).toBe(`{"status":"REQUEST_ID_REUSED","requestId":"${bet.requestId}"}`);
      expect(answer.signed).toBe(true);
    }
    expect(await balanceOf('sig-all')).toBe(900);
  });

  it('answers a signed body that breaks the contract with HTTP 400 and a reason', async () => {
    const raw = JSON.stringify({ ...betBody('sig-1', 100), currency: 'USD' });
    expect(await rawPost('/bet', raw, signingHeaders(TEST_SECRET, raw))).toEqual({
      status: 400,
      text: '{"status":"BAD_REQUEST","reason":"currency must be \\"EUR\\""}',
      signed: true,
    });
    expect((await rawPost('/bet', '{', signingHeaders(TEST_SECRET, '{'))).status).toBe(400);
    expect((await rawPost('/nothing', '{}', signingHeaders(TEST_SECRET, '{}', '/nothing'))).status).toBe(404);
    expect((await fetch(`${wallet.url}/bet`, { method: 'PUT' })).status).toBe(405);
    const huge = 'x'.repeat(70_000);
    expect((await rawPost('/bet', huge, signingHeaders(TEST_SECRET, huge))).status).toBe(413);
  });

  it('is answered with signatures that a client with another secret refuses', async () => {
    const foreign = await import('../walletApi/index.ts').then((w) =>
      w.callWallet(wallet.url, 'another-secret-of-at-least-32-characters', 'balance', {
        requestId: id('b'),
        playerId: 'sig-1',
      }),
    );
    // The wallet refuses the request; the answer, signed with the wallet's secret, does not match either.
    expect(foreign).toEqual({ kind: 'unknown', reason: 'the answer signature does not match' });
  });
});

describe('admin endpoints', () => {
  it('create, adjust (idempotent), block, limit, read; every request signed', async () => {
    const admin = wallet.admin;
    expect(await admin.createAccount('adm-1', { balanceCents: 500, dailyStakeLimitCents: 300 })).toMatchObject({
      status: 'OK',
      account: { playerId: 'adm-1', balanceCents: 500, blocked: false, dailyStakeLimitCents: 300, stakedTodayCents: 0 },
    });
    expect(await admin.createAccount('adm-1')).toMatchObject({ status: 'ACCOUNT_EXISTS' });
    expect(await admin.adjust('adm-1', 250, 'dep-1')).toMatchObject({ status: 'OK', account: { balanceCents: 750 } });
    expect(await admin.adjust('adm-1', 250, 'dep-1')).toMatchObject({ status: 'OK', account: { balanceCents: 750 } });
    expect(await admin.adjust('adm-1', 999, 'dep-1')).toMatchObject({ status: 'REQUEST_ID_REUSED' });
    expect(await admin.adjust('adm-1', -1000)).toMatchObject({ status: 'INSUFFICIENT_FUNDS' });
    expect(await admin.adjust('adm-1', -700)).toMatchObject({ status: 'OK', account: { balanceCents: 50 } });
    expect(await admin.adjust('nobody', 5)).toMatchObject({ status: 'UNKNOWN_PLAYER' });
    expect(await admin.setDailyStakeLimit('adm-1', null)).toMatchObject({ account: { dailyStakeLimitCents: null } });
    expect(await admin.block('adm-1', true)).toMatchObject({ account: { blocked: true } });
    expect(await admin.account('adm-1')).toMatchObject({ status: 'OK', account: { balanceCents: 50, blocked: true } });
    expect(await admin.account('nobody')).toMatchObject({ status: 'UNKNOWN_PLAYER' });
    const forger = walletAdmin(wallet.url, 'x'.repeat(40));
    await expect(forger.createAccount('adm-2', { balanceCents: 1e9 })).rejects.toThrow(/not signed by this secret/);
    expect(await admin.account('adm-2')).toMatchObject({ status: 'UNKNOWN_PLAYER' });
  });
});

describe('statement', () => {
  it('lists every transaction of the period, in order, with what moved; signed request and answer', async () => {
    const start = new Date('2031-01-01T00:00:00.000Z');
    clock = start;
    try {
      await account('stmt-1', 1000);
      const bet = betBody('stmt-1', 300);
      await wallet.call('bet', bet);
      clock = new Date('2031-01-01T00:00:01.000Z');
      await wallet.call('win', settleBody(bet, 600));
      const lateBet = betBody('stmt-1', 200);
      await wallet.call('rollback', settleBody(lateBet, 200));
      await wallet.call('bet', lateBet); // ROLLED_BACK: no transaction
      clock = new Date('2031-01-02T00:00:00.000Z');
      await wallet.call('bet', betBody('stmt-1', 100)); // outside the period
    } finally {
      clock = new Date('2026-11-30T10:00:00.000Z');
    }
    const full = await getFullStatement(wallet.url, TEST_SECRET, { from: start, to: '2031-01-02T00:00:00Z', limit: 2 });
    if (full.kind !== 'answer') throw new Error(full.reason);
    expect(full.transactions.map((t) => [t.kind, t.amountCents, t.movedCents, t.balanceAfterCents])).toEqual([
      ['deposit', 1000, 1000, 1000],
      ['bet', 300, -300, 700],
      ['win', 600, 600, 1300],
      ['rollback', 200, 0, 1300],
    ]);
    expect(full.transactions[2]).toMatchObject({
      playerId: 'stmt-1',
      betRequestId: expect.any(String),
      roundId: expect.any(String),
    });
    const unsigned = await fetch(`${wallet.url}/statement?from=2031-01-01T00:00:00Z&to=2031-01-02T00:00:00Z`);
    expect(await unsigned.text()).toBe('{"status":"INVALID_SIGNATURE"}');
    const target = '/statement?from=yesterday&to=2031-01-02T00:00:00Z';
    const bad = await fetch(`${wallet.url}${target}`, { headers: signedHeaders(ring, target, '') });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/from must be an ISO 8601 date-time/);
  });
});

describe('many calls at once', () => {
  // Hundreds of calls wait for one another's fsync: a longer wait than the game's 2 s.
  const slow = { timeoutMs: 60_000 };

  it('concurrent bets, wins and rollbacks on one account end on the exact balance', async () => {
    await account('busy', 100_000);
    const random = mulberry32(7);
    let expected = 100_000;
    const rounds = Array.from({ length: 120 }, (_, i) => {
      const stake = [100, 200, 300, 500][i % 4]!;
      const outcome = random();
      const win = outcome < 0.6 ? 0 : Math.floor(random() * 20) * 100;
      const rollback = outcome > 0.9;
      expected += rollback ? 0 : win - stake;
      return { bet: betBody('busy', stake), win, rollback };
    });
    await Promise.all(
      rounds.map(async (round) => {
        // Each bet delivered twice at once, and its settlement too: idempotency absorbs the copies.
        const [a, b] = await Promise.all([wallet.call('bet', round.bet, slow), wallet.call('bet', round.bet, slow)]);
        expect(a).toEqual(b);
        expect(a.kind === 'answer' && a.status, JSON.stringify(a)).toBe('OK');
        const settle: WalletRequests['win'] = settleBody(round.bet, round.rollback ? round.bet.amountCents : round.win);
        const call = round.rollback ? 'rollback' : 'win';
        const [c, d] = await Promise.all([wallet.call(call, settle, slow), wallet.call(call, settle, slow)]);
        expect(c).toEqual(d);
        expect(c.kind === 'answer' && c.status).toBe('OK');
      }),
    );
    expect(await balanceOf('busy')).toBe(expected);
    expect(wallet.ledger.checkBalances()).toEqual([]);
  });

  it('never lets a balance go below zero, whatever the order of the calls', async () => {
    await account('edge', 1000);
    const bets = Array.from({ length: 40 }, () => betBody('edge', 100));
    const answers = await Promise.all(bets.map((bet) => wallet.call('bet', bet, slow)));
    const taken = answers.filter((a) => a.kind === 'answer' && a.status === 'OK').length;
    expect(taken).toBe(10);
    expect(answers.filter((a) => a.kind === 'answer' && a.status === 'INSUFFICIENT_FUNDS').length).toBe(30);
    expect(await balanceOf('edge')).toBe(0);
    expect(wallet.ledger.checkBalances()).toEqual([]);
  });
});
