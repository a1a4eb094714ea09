export declare function coerceError(error: unknown): Error;
