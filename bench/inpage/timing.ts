// Timing a fast operation in a page whose clock is coarsened (performance.now() steps by 0.1 ms when
// the page is not cross-origin isolated): repeat it until enough time has passed, report the mean.

/** Mean time (ms) of one call of `fn`, after one untimed warm-up call. */
export function meanTime(fn: () => unknown, minMs = 20, maxRuns = 2000): number {
  fn();
  let runs = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    fn();
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs && runs < maxRuns);
  return elapsed / runs;
}

/** The same for an async operation (each call awaited before the next). */
export async function meanTimeAsync(fn: () => Promise<unknown>, minMs = 20, maxRuns = 50): Promise<number> {
  await fn();
  let runs = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    await fn();
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs && runs < maxRuns);
  return elapsed / runs;
}

export function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
