// Waiting on a condition, never a fixed time.
/** Polls until `check` returns truthy (real time), or fails with `what`. */
export async function until<T>(
  check: () => T | Promise<T>,
  what = 'condition',
  timeoutMs = 5000,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
