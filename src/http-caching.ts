/**
 * useHttpCaching: GraphQL GET requests whose root fields are all public and cacheable answer with
 * an ETag and the upstream's Cache-Control, and 304 on a matching If-None-Match, so browsers and
 * CDNs can cache them like the REST paths. Anything per-user (platform fields) is never marked.
 */
import { hash } from 'node:crypto';
import { getOperationAST, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * The upstream's If-None-Match parsing (hirosystems/api-toolkit): quotes and W/ prefixes stripped,
 * comma-separated lists accepted, `*` without special meaning.
 */
export function etagMatches(ifNoneMatch: string | null, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '').replace(/"/g, '');
  const wanted = bare(etag);
  return ifNoneMatch.split(',').some((tag) => bare(tag) === wanted);
}

// The public read fields (no platform field, no key): their answers are the same for every client.
const CACHEABLE_ROOT_FIELDS = new Set([
  'status', 'brc20Token', 'brc20Tokens', 'transfers', 'transfersConnection', 'etchings', 'etchingsConnection', '__typename',
]);
const CACHE_CONTROL = 'public, no-cache, must-revalidate';

/** True when every root field of the operation, through fragments, is cacheable. */
export function isCacheableOperation(document: DocumentNode, operationName?: string | null): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== 'query') return false;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const seen = new Set<string>();
  const allCacheable = (selectionSet: SelectionSetNode): boolean =>
    selectionSet.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return CACHEABLE_ROOT_FIELDS.has(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return allCacheable(selection.selectionSet);
      const name = selection.name.value;
      if (seen.has(name)) return true;
      seen.add(name);
      const fragment = fragments.get(name);
      return fragment ? allCacheable(fragment.selectionSet) : false;
    });
  return allCacheable(operation.selectionSet);
}

export function useHttpCaching(): Plugin {
  const cacheable = new WeakSet<Request>();
  return {
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (request?.method === 'GET' && isCacheableOperation(args.document, args.operationName)) {
        cacheable.add(request);
      }
    },
    onResultProcess({ request, result, acceptableMediaTypes, setResultProcessor }) {
      if (!cacheable.has(request) || Array.isArray(result) || Symbol.asyncIterator in result) return;
      if (result.errors?.length) return;
      const mediaType =
        acceptableMediaTypes.find((type) => type === 'application/graphql-response+json' || type === 'application/json') ??
        'application/json';
      setResultProcessor((processed) => {
        const body = JSON.stringify(processed);
        const etag = `"${hash('sha1', body, 'base64url')}"`;
        if (etagMatches(request.headers.get('if-none-match'), etag)) {
          return new Response(null, { status: 304, headers: { etag, 'cache-control': CACHE_CONTROL } });
        }
        return new Response(body, {
          status: 200,
          headers: { 'content-type': `${mediaType}; charset=utf-8`, etag, 'cache-control': CACHE_CONTROL },
        });
      }, mediaType);
    },
  };
}
