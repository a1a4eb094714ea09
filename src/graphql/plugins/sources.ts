import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../context.js';

/**
 * `extensions.sources`: one `{ source, height, unavailable }` per data source other than hiro that
 * served the request (docs/sources.md). Absent when hiro served it all.
 */
export function useSourceProvenance(): Plugin {
  return {
    onExecutionResult({ result, setResult, context }) {
      const sources = (context as Partial<GraphQLContext>).sources?.toJSON();
      if (sources === undefined || !result || Symbol.asyncIterator in result) return;
      setResult({ ...result, extensions: { ...result.extensions, sources } });
    },
  };
}
