/**
 * How often keys were asked lately, in constant memory: TinyLFU's count-min sketch. Each key has
 * four 4-bit counters (one per row, chosen by its hash); its estimate is the smallest, and an
 * increment raises only the counters at that minimum (conservative update: fewer overestimates).
 * After `10 × width` increments every counter is halved and `epoch` advances, so what was popular
 * long ago fades, and a count taken before is worth `count >> (epoch − then)` now.
 *
 * Written here: the libraries with a TinyLFU (caches with their own storage) would replace the
 * byte-bounded LRU it guards, and this is the one structure of theirs needed.
 */
const ROWS = 4;
const MAX_COUNT = 15;

export class FrequencySketch {
  private readonly counters: Uint8Array;
  private readonly mask: number;
  private readonly sampleSize: number;
  private increments = 0;
  /** How many times every counter has been halved. */
  epoch = 0;

  /** `width`: about the number of keys the guarded store holds; rounded up to a power of two. */
  constructor(width: number) {
    let size = 64;
    while (size < width) size *= 2;
    this.counters = new Uint8Array(ROWS * size);
    this.mask = size - 1;
    this.sampleSize = 10 * size;
  }

  /** Counts one more asking of `key`; how often it was asked lately, this time included (at most 15). */
  increment(key: string): number {
    const [first, step] = hashes(key);
    let least = MAX_COUNT;
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.counters[this.slot(row, first, step)]!);
    if (least < MAX_COUNT) {
      for (let row = 0; row < ROWS; row++) {
        const slot = this.slot(row, first, step);
        if (this.counters[slot] === least) this.counters[slot] = least + 1;
      }
    }
    if (++this.increments >= this.sampleSize) this.halve();
    return Math.min(least + 1, MAX_COUNT);
  }

  /** A count taken at `then` (an earlier `epoch`), aged as the counters have been since. */
  aged(count: number, then: number): number {
    return count >> Math.min(31, this.epoch - then);
  }

  private slot(row: number, first: number, step: number): number {
    return row * (this.mask + 1) + ((first + row * step) & this.mask);
  }

  private halve(): void {
    for (let i = 0; i < this.counters.length; i++) this.counters[i] = this.counters[i]! >> 1;
    this.increments = Math.floor(this.increments / 2);
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
