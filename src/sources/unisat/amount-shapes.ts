/**
 * UniSat's amounts as its shapes accept them: decimal strings of bounded length, checked before any
 * of them reaches BigInt (amounts.ts, runes.ts). BigInt conversion is super-linear in the digits: a
 * 9,000,000-digit `max` took 5.5 s of CPU, during which no other client was served.
 */
import { decimal, type Shape } from '../../upstream/shapes.js';
// The bound toUnits holds to: room for any writing of a real amount (39 characters at most).
import { MAX_AMOUNT_LENGTH } from '../amounts.js';

const bounded = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_AMOUNT_LENGTH;
/** Made once: a regular expression literal in the function would be a new object at every call. */
const DIGITS = /^\d+$/;

/** A decimal string (BRC-20 amounts in token units, "1000" or "0.5"). */
export const amount: Shape<string> = (value): value is string => bounded(value) && decimal(value);
/** A non-negative integer string (rune amounts in base units, counts). */
export const digits: Shape<string> = (value): value is string => bounded(value) && DIGITS.test(value);
