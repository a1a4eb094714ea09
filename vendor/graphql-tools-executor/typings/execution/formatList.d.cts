/**
 * Given [A, B, C] return 'A, B, or C'.
 *
 * @internal
 */
export declare function orList(items: ReadonlyArray<string>): string;
/**
 * Given [A, B, C] return 'A, B, and C'.
 *
 * @internal
 */
export declare function andList(items: ReadonlyArray<string>): string;
