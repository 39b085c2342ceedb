// Seeded randomness for the emulator's faults and its real-size account: the same sequence for a
// seed on every machine, so that a fault plan or a seeded account can be played again.

/** mulberry32: a small, fast generator of numbers in [0, 1). */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
