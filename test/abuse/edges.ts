import { describe } from 'vitest';

describe.todo('abuse: edges');
