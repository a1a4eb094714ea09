/**
 * Amounts as Hiro writes them: decimal strings with exactly the token's or rune's decimals,
 * computed on bigints (never through a JS number, which is exact only up to 2^53).
 */

/**
 * The longest decimal string read as an amount: u128's 39 digits with 38 decimals fit well within.
 * BigInt's parse and the trailing-zero strip below are super-linear in the length.
 */
export const MAX_AMOUNT_LENGTH = 100;

/** Base units of a decimal string at `decimals` places; undefined when it is not one, or finer, or too long. */
export function toUnits(value: string, decimals: number): bigint | undefined {
  if (value.length > MAX_AMOUNT_LENGTH) return undefined;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return undefined;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return undefined;
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** An integer amount of base units with exactly `decimals` fractional digits. */
export function formatUnits(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  if (decimals === 0) return digits;
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** `num / den * 100` with 4 decimals, rounded half up (as Hiro's BigNumber toFixed(4)). */
export function percent4(num: bigint, den: bigint): string {
  return formatUnits((num * 1_000_000n * 2n + den) / (2n * den), 4);
}
