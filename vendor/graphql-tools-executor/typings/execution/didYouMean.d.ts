/**
 * Given [A, B, C] return ' Did you mean A, B, or C?'.
 *
 * @internal
 */
export declare function didYouMean(suggestions: ReadonlyArray<string>): string;
/** @internal */
export declare function didYouMean(subMessage: string, suggestions: ReadonlyArray<string>): string;
