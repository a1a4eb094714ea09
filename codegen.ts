import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents (TypedDocumentNode) from schema.graphql and test/documents/*.graphql. */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: 'test/documents/*.graphql',
  generates: {
    'test/generated/operations.ts': {
      plugins: ['typescript', 'typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          Decimal: 'string',
          Timestamp: 'number',
          BlockId: 'string | number',
          JSON: 'unknown',
        },
      },
    },
  },
};

export default config;
