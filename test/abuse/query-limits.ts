import { describe } from 'vitest';

describe.todo('abuse: query-limits');
