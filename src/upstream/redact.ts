/**
 * Secrets out of text an upstream wrote: an error body or message may quote the request (a
 * path holding a platform key) or the credentials it refused. Matched whatever their case: a
 * platform that upper-cases the key still shows it.
 */
export const REDACTED = '<redacted>';

export function holdsSecret(text: string, secret: string): boolean {
  return secret !== '' && text.toLowerCase().includes(secret.toLowerCase());
}

export function redacted(text: string, secret: string): string {
  if (!holdsSecret(text, secret)) return text;
  return text.replace(new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), REDACTED);
}

/** `text` with each of `secrets` replaced, the longest first (one may hold another). */
export function redactedAll(text: string, secrets: readonly string[]): string {
  return [...secrets].sort((a, b) => b.length - a.length).reduce(redacted, text);
}
