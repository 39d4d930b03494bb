/**
 * The control « the game’s calls alone » of `npm run bench:wallet`, run as a process of its
 * own: `connections` callers that each send bets, one after another, through the game
 * server's own wallet client (`callWallet`: signed, sent, answer checked and its signature
 * verified), with time-ordered request ids as the game makes them, for `seconds` after a
 * second of warm-up. What one
 * call costs the game with nothing else around it: a wallet play makes two (its bet and its
 * win). Prints one JSON line: calls answered, failed, seconds, p50/p99 ms and its own CPU.
 *
 *   node --import tsx bench/wallet/gameCallsAlone.ts URL SECRET PLAYER CONNECTIONS SECONDS
 */
import { uuidV7 } from '../../src/common/uuidV7.ts';
import { callWallet } from '../../src/walletApi/client.ts';

export interface CallsAloneResult {
  calls: number;
  failed: number;
  seconds: number;
  p50: number;
  p99: number;
  /** User + system CPU of this process during the load, µs. */
  cpuUs: number;
}

async function main(): Promise<void> {
  const [url, secret, player, connectionsText, secondsText] = process.argv.slice(2);
  const connections = Number(connectionsText);
  const seconds = Number(secondsText);
  if (!url || !secret || !player || !(connections > 0) || !(seconds > 0)) {
    throw new Error('usage: gameCallsAlone.ts URL SECRET PLAYER CONNECTIONS SECONDS');
  }
  // A fresh process: its first second warms the code up (compiled, connections open), unmeasured.
  const warmUpMs = 1000;
  let latencies: number[] = [];
  let failed = 0;
  let cpuBefore = process.cpuUsage();
  let startedAt = performance.now();
  const until = startedAt + warmUpMs + seconds * 1000;
  const warmedUp = setTimeout(() => {
    latencies = [];
    failed = 0;
    cpuBefore = process.cpuUsage();
    startedAt = performance.now();
  }, warmUpMs);
  const caller = async () => {
    while (performance.now() < until) {
      const sentAt = performance.now();
      const result = await callWallet(url, secret, 'bet', {
        requestId: uuidV7(),
        playerId: player,
        roundId: uuidV7(),
        amountCents: 100,
        currency: 'EUR',
      });
      if (result.kind === 'answer' && result.status === 'OK') latencies.push(performance.now() - sentAt);
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: connections }, caller));
  clearTimeout(warmedUp);
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? NaN;
  const result: CallsAloneResult = {
    calls: latencies.length,
    failed,
    seconds: (performance.now() - startedAt) / 1000,
    p50: Math.round(at(0.5) * 10) / 10,
    p99: Math.round(at(0.99) * 10) / 10,
    cpuUs: cpu.user + cpu.system,
  };
  console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
