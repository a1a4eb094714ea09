/**
 * A string's UTF-8 bytes, the text walked once. `Buffer.from(text)` first measures the text's
 * UTF-8 length (a walk of its own, the slower one on a two-byte string such as a page of rune
 * names) and then writes it. Here the text is written into a scratch buffer sized for any text of
 * its length (a UTF-16 unit is at most 3 bytes) and copied out at its real length.
 */
/** Longer texts (over 384 KiB of scratch) go to `Buffer.from`: kept for the process's life, it stays small. */
const SCRATCH_UNITS = 128 * 1024;
let scratch: Buffer | undefined;

export function utf8Bytes(text: string): Buffer<ArrayBuffer> {
  if (text.length > SCRATCH_UNITS) return Buffer.from(text);
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_UNITS * 3);
  const length = scratch.write(text, 'utf8');
  // allocUnsafe: node's pool for short answers, as Buffer.from took; every byte is copied over.
  const bytes = Buffer.allocUnsafe(length);
  scratch.copy(bytes, 0, 0, length);
  return bytes;
}
