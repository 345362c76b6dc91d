// The benches' inputs are generated, and must be the same on every run: a fixed linear congruential sequence
// (glibc's constants), each call the next number in [0, 1).

export function seededRandom(seed = 42): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}
