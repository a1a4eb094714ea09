/** `npm run schema`: writes the printed, sorted schema to schema.graphql (a test checks it). */
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../src/graphql/schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSchema(schema) + '\n');
console.log('wrote schema.graphql');
