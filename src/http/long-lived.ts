/**
 * Whether a request asks for a long-lived answer (a subscription's stream over SSE or Apollo's
 * multipart protocol, or an answer in parts over SSE), told by its Accept header alone, before
 * anything is parsed.
 */
const LONG_LIVED = /text\/event-stream|subscriptionspec/i;

export function isLongLived(accept: string | null | undefined): boolean {
  return LONG_LIVED.test(accept ?? '');
}
