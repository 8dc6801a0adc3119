// Token check in constant time: both sides are hashed first, so neither the length nor the content
// of the expected token leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function tokenMatches(expected: string, offered: unknown): boolean {
  if (typeof offered !== 'string') return false;
  return timingSafeEqual(digest(expected), digest(offered));
}
