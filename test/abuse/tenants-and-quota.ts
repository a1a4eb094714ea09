import { describe } from 'vitest';

describe.todo('abuse: tenants-and-quota');
