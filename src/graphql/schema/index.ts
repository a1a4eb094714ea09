import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { specifiedDirectives } from 'graphql';
import { builder } from './builder.js';
import { rootFieldPolicies } from './field-policy.js';
import './scalars.js';
import './status.js';
import './brc20.js';
import './transfers.js';
import './runes.js';
import './platform.js';
import './connections.js';
import './live.js';
import './nodes.js';
import { withInlineReads } from './inline-reads.js';
import { withSourceMarks } from './source-marks.js';
import { withSyncGlobalIds } from './sync-global-ids.js';

/**
 * Assembles the domain files into the schema, and reads its root fields' policies once; nothing else happens here.
 * @defer and @stream are declared here, as yoga's plugin would add them at run time, so that
 * schema.graphql holds them too: a client's codegen validates its documents against that file.
 * The passes around toSchema change how fields resolve, never what they answer.
 */
export const schema = withInlineReads(
  withSyncGlobalIds(
    withSourceMarks(
      builder.toSchema({ sortSchema: true, directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective] }),
    ),
  ),
);
/** Every root field's declared cost and cacheability (field-policy.ts): a field without one stops start-up here. */
export const rootPolicies = rootFieldPolicies(schema);
