/**
 * yoga's parsed-document cache (parse errors included) and the automatic persisted query store,
 * bounded in bytes: a parsed document weighs some 300-500 bytes per token, so a cache bounded in
 * entries alone holds hundreds of MB once clients send large distinct documents. A document is
 * kept from its second sighting (lib/second-sighting.ts): one-off documents never take room.
 */
import type { DocumentNode, Token } from 'graphql';
import { ByteLru } from '../lib/byte-lru.js';
import { SecondSighting } from '../lib/second-sighting.js';

/** Measured for graphql-js 16 ASTs with locations (tokens stay linked from the document). */
const BYTES_PER_TOKEN = 512;
const ENTRY_BYTES = 1024;

/** Tokens the document keeps alive; without locations, its source length bounds them. */
function tokensOf(document: DocumentNode, source: string): number {
  if (!document.loc) return source.length;
  let count = 0;
  for (let token: Token | null = document.loc.startToken; token; token = token.next) count++;
  return count;
}

export function createDocumentCaches(limits: { documentBytes: number; apqBytes: number }) {
  // Keys are document texts (UTF-16 in memory: 2 bytes a character).
  const parsed = new ByteLru<DocumentNode | Error>(limits.documentBytes, (source, value) =>
    value instanceof Error ? 2 * source.length + ENTRY_BYTES : 2 * source.length + BYTES_PER_TOKEN * tokensOf(value, source),
  );
  // Documents seen once, remembered by hash: a sixteenth of the bound, some 13,000 of them at 32 MB.
  const sightings = new SecondSighting(limits.documentBytes / 16);
  const apq = new ByteLru<string>(limits.apqBytes, (hash, document) => 2 * (hash.length + document.length) + ENTRY_BYTES);
  return {
    parsed,
    apq,
    /** For createYoga's `parserAndValidationCache` (validation results are kept per cached document). */
    parserAndValidationCache: {
      documentCache: {
        get: (source: string) => {
          const value = parsed.get(source);
          return value instanceof Error ? undefined : value;
        },
        set: (source: string, document: DocumentNode) => {
          if (sightings.admit(source)) parsed.set(source, document);
        },
      },
      errorCache: {
        get: (source: string) => {
          const value = parsed.get(source);
          return value instanceof Error ? value : undefined;
        },
        set: (source: string, error: unknown) => {
          if (error instanceof Error && sightings.admit(source)) parsed.set(source, error);
        },
      },
      validationCache: true,
    },
    /** For useAPQ's `store`. */
    apqStore: { get: (hash: string) => apq.get(hash), set: (hash: string, document: string) => apq.set(hash, document) },
  };
}
