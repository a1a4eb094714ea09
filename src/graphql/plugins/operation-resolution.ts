import { getOperationAST, GraphQLError, Kind, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Names listed in the message at most: a document's operations are bounded by MAX_QUERY_TOKENS anyway. */
const MAX_NAMES = 20;
/** The client's own operationName, echoed at most this long. */
const MAX_ECHOED = 100;

/**
 * A document whose operation cannot be chosen (several and no `operationName`, or a name none
 * has) gets yoga's OPERATION_RESOLUTION_FAILURE, with a message that names the operations the
 * document holds. Installed before yoga's own check, which then finds nothing to refuse.
 */
export function useOperationResolutionErrors(): Plugin {
  return {
    onParse({ context }) {
      const { request, params } = context as { request?: Request; params?: { operationName?: unknown } };
      // As yoga checks it: over HTTP only (graphql-ws resolves operations itself).
      if (!request) return;
      return ({ result }) => {
        if (result instanceof Error || result === null) return;
        const operationName = typeof params?.operationName === 'string' ? params.operationName : undefined;
        if (getOperationAST(result, operationName)) return;
        // 400 where the client takes application/graphql-response+json, 200 for application/json
        // (`spec`), as the GraphQL over HTTP spec says and as parse and validation errors are.
        throw new GraphQLError(resolutionMessage(result, operationName), {
          extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { spec: true, status: 400 } },
        });
      };
    },
  };
}

function resolutionMessage(document: DocumentNode, operationName: string | undefined): string {
  const names: string[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) names.push(definition.name ? definition.name.value : '(anonymous)');
  }
  if (names.length === 0) return 'The document has no operation to execute, only fragments';
  const listed =
    names.length > MAX_NAMES ? `${names.slice(0, MAX_NAMES).join(', ')} and ${names.length - MAX_NAMES} more` : names.join(', ');
  if (operationName === undefined) return `The document has ${names.length} operations (${listed}): name one in operationName`;
  const echoed = operationName.length > MAX_ECHOED ? `${operationName.slice(0, MAX_ECHOED)}…` : operationName;
  return `No operation named "${echoed}" in the document; it has: ${listed}`;
}
