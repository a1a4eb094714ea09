declare function genFn(): {
    (str: string): any;
    toString(): string;
};

export { genFn };
