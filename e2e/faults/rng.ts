// A seeded PRNG (mulberry32) so a fault run is repeatable: the same --seed picks the same scenarios,
// fault kinds, delays and cut points. (Real timing still varies; the choices do not.)

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** An independent stream for a named part of a run (adding a draw elsewhere does not shift it). */
  fork(label: string): Rng {
    let h = this.state ^ 0x9e3779b9;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
    return new Rng(h >>> 0);
  }
}

/** Seed for run `index` of a suite seeded with `seed`. */
export function runSeed(seed: number, index: number): number {
  return new Rng((seed ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0).int(0, 2 ** 31 - 1);
}
