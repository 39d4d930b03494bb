import { describe, expect, it } from 'vitest';
import { parseWrk, wrkMs } from './loadGenerator.ts';

/** What Debian's wrk 4.1.0 prints with `--latency` (a run against the reference wallet, two lines added). */
const WRK_OUTPUT = `Running 2s test @ http://127.0.0.1:40579
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.11ms    2.79ms  23.43ms   88.79%
    Req/Sec     1.47k   447.58     2.09k    45.00%
  Latency Distribution
     50%  455.34us
     75%    4.10ms
     90%    6.36ms
     99%   14.30ms
  2943 requests in 2.02s, 0.94MB read
  Socket errors: connect 1, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 5
Requests/sec:   1460.46
Transfer/sec:    478.68KB
`;

describe('wrk', () => {
  it('reads durations in any of its units as ms', () => {
    expect(wrkMs('455.34us')).toBeCloseTo(0.45534);
    expect(wrkMs('1.59ms')).toBe(1.59);
    expect(wrkMs('1.02s')).toBe(1020);
    expect(wrkMs('1.50m')).toBe(90_000);
    expect(wrkMs('')).toBeNaN();
  });

  it('reads requests, its own duration, percentiles (not the stdev column), failures and the CPU from time', () => {
    expect(parseWrk(WRK_OUTPUT, 'cpu 0.31 0.12\n')).toEqual({
      requests: 2943,
      seconds: 2.02,
      p50: expect.closeTo(0.45534, 9),
      p99: 14.3,
      errors: 6,
      non2xx: 5,
      cpuMs: 430,
    });
  });

  it('leaves what it cannot read as NaN or unknown, and no failures where wrk printed none', () => {
    const result = parseWrk('Running 2s test @ http://127.0.0.1:1\n', '');
    expect(result.requests).toBeNaN();
    expect(result.p99).toBeNaN();
    expect(result).toMatchObject({ errors: 0, non2xx: 0, cpuMs: null });
  });
});
