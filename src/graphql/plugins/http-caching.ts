/**
 * useHttpCaching: GraphQL GET requests whose root fields are all public and cacheable answer with
 * an ETag and the upstream's Cache-Control, and 304 on a matching If-None-Match, so browsers and
 * CDNs can cache them like the REST paths. A root field is public when its policy says so
 * (`cache: 'public'`, graphql/schema/field-policy.ts): anything per-user (platform fields) is never marked.
 */
import { getOperationAST, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlEtagMatches, etagOf, GET_ANSWER_VARY as VARY } from '../../http/etag.js';
import type { RootFieldPolicies } from '../schema/field-policy.js';
import { rootPolicies } from '../schema/index.js';

const CACHE_CONTROL = 'public, no-cache, must-revalidate';

/**
 * True when every root field of the query, through fragments, is public (`__typename` too: the
 * gateway answers it, the same for every client). Validated documents only: every root-level field
 * is one of the query type's.
 */
export function isCacheableOperation(
  document: DocumentNode,
  operationName?: string | null,
  policies: RootFieldPolicies = rootPolicies,
): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== 'query') return false;
  const fields = policies.byType.get(policies.rootType.query ?? '');
  const isPublic = (name: string) => name === '__typename' || fields?.get(name)?.cache === 'public';
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const seen = new Set<string>();
  const allCacheable = (selectionSet: SelectionSetNode): boolean =>
    selectionSet.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return isPublic(selection.name.value);
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
  const executedGets = new WeakSet<Request>();
  return {
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (request?.method !== 'GET') return;
      executedGets.add(request);
      if (isCacheableOperation(args.document, args.operationName)) cacheable.add(request);
    },
    onResponse({ request, response }) {
      // Any other executed GET's answer (a platform field's, which depends on the API key, or one
      // with errors) is for no cache: a shared cache could otherwise keep it by its own heuristics.
      if (executedGets.has(request) && !response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
    },
    onResultProcess({ request, result, setResultProcessor }) {
      if (!cacheable.has(request) || Array.isArray(result) || Symbol.asyncIterator in result) return;
      if (result.errors?.length) return;
      // Only where yoga would answer JSON (not SSE, multipart or 406), in the JSON type it would pick.
      const mediaType = jsonMediaType(request);
      if (!mediaType) return;
      setResultProcessor((processed) => {
        const body = JSON.stringify(processed);
        // One URL answers each JSON type (and SSE, multipart, GraphiQL) by Accept: a shared cache
        // must keep them apart, and revalidating one must not confirm another.
        const etag = etagOf(`${mediaType}\n${body}`);
        if (graphqlEtagMatches(request.headers.get('if-none-match'), etag)) {
          return new Response(null, { status: 304, headers: { etag, 'cache-control': CACHE_CONTROL, vary: VARY } });
        }
        return new Response(body, {
          status: 200,
          headers: { 'content-type': `${mediaType}; charset=utf-8`, etag, 'cache-control': CACHE_CONTROL, vary: VARY },
        });
      }, mediaType);
    },
  };
}

const JSON_MEDIA_TYPES = ['application/graphql-response+json', 'application/json'];

/**
 * The JSON media type yoga's result processors give this request, or undefined when its Accept
 * takes none (yoga then answers SSE, multipart or 406). As yoga decides: utf-8 types only, and of
 * the matches, the one for the client's first-listed type; `application/json` for a wildcard.
 */
function jsonMediaType(request: Request): string | undefined {
  const accepted = (request.headers.get('accept') || '*/*').replace(/\s/g, '').toLowerCase().split(',');
  for (const entry of accepted) {
    const [type = '', ...params] = entry.split(';');
    if ((params.find((param) => param.includes('charset=')) ?? 'charset=utf-8') !== 'charset=utf-8') continue;
    const [group, subtype] = type.split('/');
    let chosen: string | undefined;
    for (const offered of JSON_MEDIA_TYPES) {
      const [offeredGroup, offeredSubtype] = offered.split('/');
      if ((group === '*' || group === offeredGroup) && (subtype === '*' || subtype === offeredSubtype)) chosen = offered;
    }
    if (chosen) return chosen;
  }
  return undefined;
}
