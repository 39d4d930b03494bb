/**
 * The runs of `npm run bench:wallet`: a warm-up of every mode, then rounds in which every
 * mode and connection count is measured in turn (so that a burst of other work on the machine
 * hits them alike); every run printed as it ends.
 */
import { CONNECTIONS, MODES, runKey, type Figures, type Mode } from './figures.ts';
import type { Stage } from './stage.ts';

export interface Timing {
  warmupS: number;
  durationS: number;
  rounds: number;
}

/** Measures one run: `mode` with `connections` for `durationS`. */
export type Measure = (mode: Mode, connections: number, durationS: number) => Promise<Figures>;

export async function takeRounds(
  stage: Stage,
  timing: Timing,
  measure: Measure,
  describe: (figures: Figures) => string,
  modes: readonly Mode[] = MODES,
): Promise<Map<string, Figures[]>> {
  for (const mode of modes) {
    await stage.setLatency(mode);
    await measure(mode, CONNECTIONS[0]!, timing.warmupS);
  }
  const taken = new Map<string, Figures[]>();
  for (let round = 0; round < timing.rounds; round++) {
    for (const connections of CONNECTIONS) {
      for (const mode of modes) {
        await stage.setLatency(mode);
        const figures = await measure(mode, connections, timing.durationS);
        const key = runKey(mode, connections);
        taken.set(key, [...(taken.get(key) ?? []), figures]);
        console.log(
          `round ${round + 1} ${mode.padEnd(27)} ${String(connections).padStart(2)} conn: ` +
            `${figures.rps.toFixed(0)} plays/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.failed} failed, ` +
            describe(figures),
        );
      }
    }
  }
  await stage.setLatency('embedded');
  return taken;
}
