/**
 * What a request's Accept header says of its answer, before anything is parsed.
 */
/** Apollo Client names its multipart subscription protocol only when it subscribes. */
const APOLLO_SUBSCRIPTION = /subscriptionspec/i;
const EVENT_STREAM = /text\/event-stream/i;
/** The types a single result is written in (yoga's, and any type). */
const SINGLE_RESULT = /application\/(?:json|graphql-response\+json|graphql\+json)|\*\/\*/i;

/** Whether it may ask for a long-lived answer: a subscription's stream, or an answer in parts over SSE. */
export function isLongLived(accept: string | null | undefined): boolean {
  const value = accept ?? '';
  return APOLLO_SUBSCRIPTION.test(value) || EVENT_STREAM.test(value);
}

/**
 * Whether only a subscription's stream can answer it: Apollo's multipart subscription, or SSE with
 * no type a single result takes. urql names SSE beside JSON on every query (its default Accept), so
 * a request that also takes JSON may be a query and is told apart only by its document.
 */
export function isStreamOnly(accept: string | null | undefined): boolean {
  const value = accept ?? '';
  return APOLLO_SUBSCRIPTION.test(value) || (EVENT_STREAM.test(value) && !SINGLE_RESULT.test(value));
}
