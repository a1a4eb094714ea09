/** Whether a request target (in origin form, listener.ts) is yoga's GraphQL endpoint, with or without a query. */
export function isGraphqlTarget(target: string): boolean {
  return target === '/graphql' || target.startsWith('/graphql?');
}
