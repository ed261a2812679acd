/**
 * 1 − Levenshtein distance / longer length, or 0 as soon as it is certain to fall below
 * `minimum`: the distance table stops once a whole row exceeds the distance allowed.
 */
export function similarityAtLeast(a: string, b: string, minimum: number): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  const maxDistance = Math.floor((1 - minimum) * longer);
  if (Math.abs(a.length - b.length) > maxDistance) return 0;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMinimum = i;
    const code = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (code === b.charCodeAt(j - 1) ? 0 : 1);
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > maxDistance) return 0;
    [previous, current] = [current, previous];
  }
  const distance = previous[b.length] ?? longer;
  return distance > maxDistance ? 0 : 1 - distance / longer;
}

/**
 * Dice coefficient over pairs of characters, with one text's pairs counted once so it can be
 * compared with every line of a file cheaply: one map lookup per pair, nothing allocated per
 * comparison (a generation stamp resets the counts of pairs already taken).
 */
export class BigramProfile {
  private readonly slots = new Map<number, number>();
  private readonly available: Int32Array;
  private readonly taken: Int32Array;
  private readonly stamps: Int32Array;
  private readonly size: number;
  private generation = 0;

  constructor(text: string) {
    this.size = Math.max(0, text.length - 1);
    const counts: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const pair = bigramAt(text, i);
      const slot = this.slots.get(pair);
      if (slot === undefined) {
        this.slots.set(pair, counts.length);
        counts.push(1);
      } else {
        counts[slot] = (counts[slot] ?? 0) + 1;
      }
    }
    this.available = Int32Array.from(counts);
    this.taken = new Int32Array(counts.length);
    this.stamps = new Int32Array(counts.length);
  }

  similarity(other: string): number {
    const otherSize = Math.max(0, other.length - 1);
    if (this.size === 0 || otherSize === 0) return 0;
    this.generation++;
    let shared = 0;
    for (let i = 0; i < otherSize; i++) {
      const slot = this.slots.get(bigramAt(other, i));
      if (slot === undefined) continue;
      if (this.stamps[slot] !== this.generation) {
        this.stamps[slot] = this.generation;
        this.taken[slot] = 0;
      }
      if ((this.taken[slot] ?? 0) < (this.available[slot] ?? 0)) {
        shared++;
        this.taken[slot] = (this.taken[slot] ?? 0) + 1;
      }
    }
    return (2 * shared) / (this.size + otherSize);
  }
}

function bigramAt(text: string, index: number): number {
  return text.charCodeAt(index) * 65536 + text.charCodeAt(index + 1);
}
