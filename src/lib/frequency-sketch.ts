/**
 * How often keys were asked lately, in constant memory: TinyLFU's count-min sketch. Each key has
 * four 4-bit counters (one per row, chosen by its hash); its estimate is the smallest, and an
 * increment raises only the counters at that minimum (conservative update: fewer overestimates).
 *
 * Counts fade: every counter is halved, and `epoch` advances, after `10 × width` askings (keys
 * counted here and stored ones counted by their holder through `again`), and at least once every
 * `halfLifeMs`. Without the second, a store asked rarely would keep what was popular long ago
 * ahead of everything new for hours. A count a holder took at an earlier epoch is worth
 * `count >> (epoch − then)` now (`aged`).
 *
 * Written here: the package found with a count-min sketch (bloom-filters) brings eight
 * dependencies and no halving; the caches with a TinyLFU come with their own storage, which would
 * replace the byte-bounded LRU this guards.
 */
const ROWS = 4;
/** The most a 4-bit counter holds: counts are compared, not summed, so more would not help. */
const MOST_ASKED = 15;
/** Halvings made at once after a long quiet: four take any count to zero. */
const MOST_HALVINGS = 4;

export class FrequencySketch {
  private readonly counters: Uint8Array;
  private readonly mask: number;
  private readonly sampleSize: number;
  private askings = 0;
  private halvedAt: number;
  /** How many times every counter has been halved. */
  epoch = 0;

  /** `width`: about the number of keys the guarded store holds; rounded up to a power of two. */
  constructor(
    width: number,
    private readonly halfLifeMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    let size = 64;
    while (size < width) size *= 2;
    this.counters = new Uint8Array(ROWS * size);
    this.mask = size - 1;
    this.sampleSize = 10 * size;
    this.halvedAt = now();
  }

  /** Counts one more asking of `key`; how often it was asked lately, this time included. */
  increment(key: string): number {
    this.ageByTime();
    const [first, step] = hashes(key);
    let least = MOST_ASKED;
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.counters[this.slot(row, first, step)]!);
    if (least < MOST_ASKED) {
      for (let row = 0; row < ROWS; row++) {
        const slot = this.slot(row, first, step);
        if (this.counters[slot] === least) this.counters[slot] = least + 1;
      }
    }
    this.counted();
    return Math.min(least + 1, MOST_ASKED);
  }

  /**
   * One more asking of a key whose holder keeps its count (`count`, taken at epoch `then`): that
   * count as it stands now, plus this one. No hashing: what a stored result's answer costs.
   */
  again(count: number, then: number): number {
    this.counted();
    return Math.min(this.aged(count, then) + 1, MOST_ASKED);
  }

  /** A count taken at `then` (an earlier `epoch`), aged as the counters have been since. */
  aged(count: number, then: number): number {
    return count >> Math.min(31, this.epoch - then);
  }

  private counted(): void {
    if (++this.askings >= this.sampleSize) this.halve();
  }

  private ageByTime(): void {
    const due = Math.floor((this.now() - this.halvedAt) / this.halfLifeMs);
    for (let i = 0; i < Math.min(due, MOST_HALVINGS); i++) this.halve();
  }

  private slot(row: number, first: number, step: number): number {
    return row * (this.mask + 1) + ((first + row * step) & this.mask);
  }

  private halve(): void {
    for (let i = 0; i < this.counters.length; i++) this.counters[i] = this.counters[i]! >> 1;
    this.askings = Math.floor(this.askings / 2);
    this.halvedAt = this.now();
    this.epoch++;
  }
}

/** Two 32-bit hashes of `key` (FNV-1a, then a mix of it): a row's counter is `first + row × step`. */
function hashes(key: string): [number, number] {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  let step = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  step ^= step >>> 13;
  return [hash >>> 0, (step | 1) >>> 0];
}
