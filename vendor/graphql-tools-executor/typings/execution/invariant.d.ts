export declare function invariant(condition: boolean, message?: string): asserts condition;
