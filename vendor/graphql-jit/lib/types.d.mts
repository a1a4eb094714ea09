type Maybe<T> = null | undefined | T;

export type { Maybe };
