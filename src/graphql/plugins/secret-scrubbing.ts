/**
 * Scrubbing of API keys that graphql-js would echo back in error messages
 * (`Expected value of type String, found ["<key>"]`).
 */
import { mapAsyncIterator } from '@envelop/core';
import { GraphQLError, visit, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { REDACTED } from '../../upstream/redact.js';
import { mapPayloadErrors } from '../incremental-delivery.js';

/** Past this many distinct keys in one request, error details are withheld rather than searched. */
const MAX_SECRETS = 32;
/** Extensions are searched this deep; anything deeper is dropped. */
const MAX_EXTENSION_DEPTH = 8;
/** Something that looks like an `apiKey` argument or member, in text that may not parse: its value, or `$` and a variable name. */
const KEY_ARGUMENT = /apiKey[\s\\"']*:[\s\\"'[]*(\$?)([^\s"'\\,)}\]]+)/g;
/**
 * A JSON member (`"name": value`, escaped or not), to find the value of a variable named above.
 * It starts at the quote, not at the backslashes before it: a run of n backslashes would cost n²
 * (a 90 kB request held the process for 5.7 s).
 */
const JSON_MEMBER = /"(\w+)\\*"\s*:[\s\\"'[]*([^\s"'\\,)}\]]+)/g;

/** What a request gave, kept until its answer is scrubbed (a batch gives several). */
export interface GivenSecrets {
  texts: string[];
  variables: unknown[];
  documents: DocumentNode[];
}

/**
 * Keys given as `apiKey` arguments (in any type: a list or an Int is still a key the user typed),
 * as variables, or as the x-api-key header, replaced in every error message and in every string of
 * every error's extensions. Text that did not parse (a malformed JSON body, which yoga echoes in
 * `extensions.originalError`, or a document with a syntax error) is searched for anything that
 * looks like an `apiKey` argument.
 */
export function useSecretScrubbing(): Plugin {
  const requests = new WeakMap<Request, GivenSecrets>();
  const givenBy = (request: Request) => {
    let given = requests.get(request);
    if (!given) requests.set(request, (given = { texts: [], variables: [], documents: [] }));
    return given;
  };
  return {
    onParams({ request, params }) {
      const given = givenBy(request);
      if (typeof params.query === 'string') given.texts.push(params.query);
      given.variables.push(params.variables);
    },
    onParse({ context }) {
      const request = (context as { request?: Request }).request;
      return ({ result }) => {
        if (request && result && !(result instanceof Error)) givenBy(request).documents.push(result);
      };
    },
    onResultProcess({ request, result, setResult }) {
      const given = requests.get(request) ?? { texts: [], variables: [], documents: [] };
      if (Symbol.asyncIterator in result) {
        // Each event of a subscription, each payload of @defer/@stream (their items' errors too).
        setResult(mapAsyncIterator(result, (payload) => mapPayloadErrors(payload, (results) => scrubSecrets(results, request, given))));
        return;
      }
      const results = Array.isArray(result) ? result : [result];
      const scrubbed = scrubSecrets(results, request, given);
      if (scrubbed !== results) setResult(Array.isArray(result) ? scrubbed : scrubbed[0]!);
    },
  };
}

/**
 * `results` with every API key the request gave (see useSecretScrubbing) replaced in their errors;
 * the same array when none has an error. graphql-ws answers go through it too (graphql/websocket.ts).
 */
export function scrubSecrets(results: ExecutionResult[], request: Request, given: GivenSecrets): ExecutionResult[] {
  if (!results.some((r) => r.errors?.length)) return results;
  const texts = [...given.texts, ...new URL(request.url).searchParams.values()];
  for (const { errors } of results) {
    for (const error of errors ?? []) {
      texts.push(error.message);
      mapStrings(error.extensions, (text) => (texts.push(text), text));
    }
  }
  const secrets = secretsOf(request, given, texts);
  // Each key as typed and as it reads inside a JSON string; the longest first.
  const patterns = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))].sort(
    (a, b) => b.length - a.length,
  );
  const scrubError = (error: GraphQLError): GraphQLError => {
    if (secrets.length > MAX_SECRETS) {
      const { code, http } = (error.extensions ?? {}) as { code?: unknown; http?: { status?: unknown } };
      return new GraphQLError('Error details withheld: the request carries too many API keys', {
        extensions: {
          ...(typeof code === 'string' && { code }),
          ...(typeof http?.status === 'number' && { http: { status: http.status } }),
        },
      });
    }
    let changed = false;
    const scrub = (text: string) => {
      let out = text.startsWith('Syntax Error:') ? withoutQuoted(text) : text;
      for (const pattern of patterns) if (out.includes(pattern)) out = out.split(pattern).join(REDACTED);
      changed ||= out !== text;
      return out;
    };
    const message = scrub(error.message);
    const extensions = mapStrings(error.extensions, scrub) as GraphQLError['extensions'];
    if (!changed) return error;
    return new GraphQLError(message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      extensions,
    });
  };
  return results.map((r) => (r.errors?.length ? { ...r, errors: r.errors.map((e) => scrubError(e as GraphQLError)) } : r));
}

/**
 * Every quoted string of `text` (escapes read) as `"<redacted>"`; one left open, to the end. One
 * pass: a regular expression tries again from each quote of a string left open, which made
 * `\"` pairs cost n².
 */
export function withoutQuoted(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('"'); open !== -1; open = text.indexOf('"', from)) {
    let close = open + 1;
    while (close < text.length && text[close] !== '"') close += text[close] === '\\' ? 2 : 1;
    out += `${text.slice(from, open)}"${REDACTED}"`;
    from = close + 1;
    if (from >= text.length) return out;
  }
  return out + text.slice(from);
}

/** Every string in a value (object keys too) through `map`; no deeper than MAX_EXTENSION_DEPTH. */
function mapStrings(value: unknown, map: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return map(value);
  if (!value || typeof value !== 'object') return value;
  if (depth >= MAX_EXTENSION_DEPTH) return undefined;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map, depth + 1)]));
}

function secretsOf(request: Request, given: GivenSecrets, texts: string[]): string[] {
  const secrets = new Set<string>();
  // Iterative: a variable may nest as deep as the request body allows.
  const add = (value: unknown): void => {
    const pending = [value];
    while (pending.length > 0) {
      const next = pending.pop();
      if (typeof next === 'string' || typeof next === 'number') {
        const text = String(next);
        if (text.length >= 4) secrets.add(text);
      } else if (next && typeof next === 'object') {
        for (const item of Object.values(next)) pending.push(item);
      }
    }
  };
  const addVariable = (name: string) => {
    for (const variables of given.variables) {
      if (variables && typeof variables === 'object' && Object.hasOwn(variables, name)) add((variables as Record<string, unknown>)[name]);
    }
  };
  add(request.headers.get('x-api-key') ?? undefined);
  for (const document of given.documents) {
    visit(document, {
      Argument(argument) {
        if (argument.name.value !== 'apiKey') return;
        visit(argument.value, {
          StringValue: (node) => add(node.value),
          IntValue: (node) => add(node.value),
          FloatValue: (node) => add(node.value),
          EnumValue: (node) => add(node.value),
          Variable: (node) => addVariable(node.name.value),
        });
      },
    });
  }
  const variableNames = new Set<string>();
  for (const text of texts) {
    for (const [, variable, value] of text.matchAll(KEY_ARGUMENT)) {
      if (variable) variableNames.add(value!);
      else add(value);
    }
  }
  if (variableNames.size > 0) {
    for (const name of variableNames) addVariable(name);
    for (const text of texts) {
      for (const [, name, value] of text.matchAll(JSON_MEMBER)) if (variableNames.has(name!)) add(value);
    }
  }
  return [...secrets];
}
