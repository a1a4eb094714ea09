// Deterministic value generators for the sample dataset: every value is derived from a
// label through SHA-256, so the data is identical on every run and machine.
import { createHash } from 'node:crypto';

/** 64 hex chars (or `length`) derived from `label`. */
export function hex(label: string, length = 64): string {
  let out = '';
  for (let i = 0; out.length < length; i++) {
    out += createHash('sha256').update(`satgate-sample:${label}:${i}`).digest('hex');
  }
  return out.slice(0, length);
}

/** Uniform float in [0, 1) derived from `label`. */
export function rand(label: string): number {
  return parseInt(hex(label, 12), 16) / 2 ** 48;
}

/** Integer in [min, max] derived from `label`. */
export function randInt(label: string, min: number, max: number): number {
  return min + Math.floor(rand(label) * (max - min + 1));
}

export function pick<T>(label: string, items: readonly T[]): T {
  const item = items[randInt(label, 0, items.length - 1)];
  if (item === undefined) throw new Error('pick from empty list');
  return item;
}

// --- bech32m (BIP-350), so generated taproot addresses carry a valid checksum ---
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    GENERATOR.forEach((g, i) => {
      if ((top >>> i) & 1) chk ^= g;
    });
  }
  return chk;
}

function toWords(bytes: Buffer): number[] {
  const words: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  return words;
}

/** A mainnet P2TR address (bc1p...) for a 32-byte witness program. */
export function taprootAddress(program: Buffer): string {
  const hrp = [...'bc'].map((c) => c.charCodeAt(0));
  const data = [1, ...toWords(program)];
  const mod = polymod([...hrp.map((c) => c >> 5), 0, ...hrp.map((c) => c & 31), ...data, 0, 0, 0, 0, 0, 0]) ^ 0x2bc830a3;
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return 'bc1' + [...data, ...checksum].map((d) => CHARSET[d]).join('');
}

export function address(label: string): string {
  return taprootAddress(Buffer.from(hex(`addr:${label}`), 'hex'));
}

/** Formats an integer amount of base units with exactly `decimals` fractional digits. */
export function formatUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals);
  return (negative ? '-' : '') + (decimals > 0 ? `${int}.${frac}` : int);
}

/** `num / den * 100` with 4 decimals, rounded half up (BigNumber's toFixed default). */
export function percent4(num: bigint, den: bigint): string {
  const scaled = (num * 1_000_000n * 2n + den) / (2n * den);
  return formatUnits(scaled, 4);
}

/**
 * `map` over an array, remembered until another array comes: the activity (activity.ts) replaces
 * its arrays when its data changes, so a profile mapped from them is made again only then.
 */
export function mappedOnce<T, U>(map: (item: T) => U): (items: readonly T[]) => readonly U[] {
  let source: readonly T[] | undefined;
  let mapped: readonly U[] = [];
  return (items) => {
    if (items !== source) {
      source = items;
      mapped = items.map(map);
    }
    return mapped;
  };
}
