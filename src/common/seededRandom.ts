/**
 * The one seeded generator of the project (mulberry32): a deterministic random() in
 * [0, 1) for tests, fixtures, the client's test mode and the sound renderer. Never for
 * outcomes: those come from the emission's cryptographic generator.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
