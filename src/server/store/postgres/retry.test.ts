import { describe, expect, it } from 'vitest';
import { isConnectionLoss, isRetryable, MAX_ATTEMPTS, retryDelayMs } from './retry.ts';

describe('which play transaction failures are retried', () => {
  it.each([
    [{ code: '40001' }, true, false],
    [{ code: '40P01' }, true, false],
    [{ code: '57P01' }, true, true],
    [{ code: '08006' }, true, true],
    [{ code: 'ECONNRESET' }, true, true],
    [{ code: '23505', constraint: 'plays_play_id_key' }, true, false],
    [new Error('Connection terminated unexpectedly'), true, true],
  ])('%o is retried (connection lost: %s)', (error, retried, lost) => {
    expect(isRetryable(error)).toBe(retried);
    expect(isConnectionLoss(error)).toBe(lost);
  });

  it.each([
    [{ code: '23505', constraint: 'plays_block_id_position_key' }],
    [{ code: '23514' }],
    [{ code: '42P01' }],
    [new Error('unit of 200 cents sold at 100')],
    [null],
    ['40001'],
  ])('%o is not retried', (error) => {
    expect(isRetryable(error)).toBe(false);
    expect(isConnectionLoss(error)).toBe(false);
  });

  it('backs off, with jitter, for about ten seconds in all', () => {
    let worst = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const delay = retryDelayMs(attempt);
      expect(delay).toBeGreaterThan(0);
      expect(delay).toBeLessThanOrEqual(2000);
      worst += Math.min(2000, 5 * 2 ** attempt);
    }
    expect(worst).toBeGreaterThan(5000);
    expect(worst).toBeLessThan(20_000);
  });
});
