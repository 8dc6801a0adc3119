// Reconnect delays (spec README §14): exponential from 0.5 s up to 30 s, with full jitter.

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 30_000;

/**
 * The delay before reconnect attempt `attempt` (0 for the first retry): a uniformly random value in
 * [0, min(max, base·2^attempt)) — "full jitter", so many clients dropped at once do not return together.
 */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  base = BACKOFF_BASE_MS,
  max = BACKOFF_MAX_MS,
): number {
  const ceiling = Math.min(max, base * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.floor(random() * ceiling);
}
