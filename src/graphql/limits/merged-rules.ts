/**
 * Validation rules merged into one rule whose visitor is built per syntax kind, on first use.
 *
 * graphql-js's `validate` merges its rules with `visitInParallel`, which first builds an entry for
 * every one of the 40-odd syntax kinds from every rule: about 100 KB of arrays, objects and closures
 * for the 35 rules yoga runs, before it reads the document. A small document meets a dozen kinds.
 * Under a stream of new documents that garbage was the largest allocation site, and what young
 * collections copied. Handing `validate` this one rule instead gives the same errors in the same
 * order: each kind's entry does what `visitInParallel`'s does (per-rule skipping, BREAK), but is
 * made only when a node of that kind is met.
 */
import { BREAK, getEnterLeaveForKind, Kind, type ASTNode, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';

/** A visitor's hook, called as `visit` calls it: node, key, parent, path, ancestors. */
type Hook = (this: unknown, node: ASTNode, key: unknown, parent: unknown, path: unknown, ancestors: unknown) => unknown;

interface KindEntry {
  enter: Array<Hook | undefined>;
  leave: Array<Hook | undefined>;
}

/** What each rule is doing: visiting (null), skipping the subtree of a node, or stopped (BREAK). */
type Skipping = ASTNode | typeof BREAK | null;

class ParallelVisitor {
  readonly skipping: Skipping[];
  private readonly entries = new Map<string, KindEntry | null>();

  constructor(readonly visitors: ASTVisitor[]) {
    this.skipping = visitors.map(() => null);
  }

  /** The rules' hooks for `kind`, or null when no rule visits it. */
  entry(kind: string): KindEntry | null {
    let entry = this.entries.get(kind);
    if (entry !== undefined) return entry;
    const count = this.visitors.length;
    const enter = new Array<Hook | undefined>(count);
    const leave = new Array<Hook | undefined>(count);
    let any = false;
    for (let i = 0; i < count; i++) {
      const hooks = getEnterLeaveForKind(this.visitors[i]!, kind as Kind);
      enter[i] = hooks.enter as Hook | undefined;
      leave[i] = hooks.leave as Hook | undefined;
      any ||= hooks.enter != null || hooks.leave != null;
    }
    entry = any ? { enter, leave } : null;
    this.entries.set(kind, entry);
    return entry;
  }

  enterKind(kind: string, node: ASTNode, key: unknown, parent: unknown, path: unknown, ancestors: unknown): unknown {
    const entry = this.entry(kind);
    if (entry === null) return undefined;
    for (let i = 0; i < this.visitors.length; i++) {
      if (this.skipping[i] !== null) continue;
      const result = entry.enter[i]?.call(this.visitors[i], node, key, parent, path, ancestors);
      if (result === false) this.skipping[i] = node;
      else if (result === BREAK) this.skipping[i] = BREAK;
      else if (result !== undefined) return result;
    }
    return undefined;
  }

  leaveKind(kind: string, node: ASTNode, key: unknown, parent: unknown, path: unknown, ancestors: unknown): unknown {
    const entry = this.entry(kind);
    if (entry === null) return undefined;
    for (let i = 0; i < this.visitors.length; i++) {
      if (this.skipping[i] === null) {
        const result = entry.leave[i]?.call(this.visitors[i], node, key, parent, path, ancestors);
        if (result === BREAK) this.skipping[i] = BREAK;
        else if (result !== undefined && result !== false) return result;
      } else if (this.skipping[i] === node) {
        this.skipping[i] = null;
      }
    }
    return undefined;
  }
}

// One pair of hooks per kind for every visitor, made once: `validate` reads each kind of the
// merged visitor up front, so these must cost nothing per validation. They run with `this` bound
// to the visitor (visitInParallel applies them so).
for (const kind of Object.values(Kind)) {
  const hooks = {
    enter(this: ParallelVisitor, node: ASTNode, key: unknown, parent: unknown, path: unknown, ancestors: unknown) {
      return this.enterKind(kind, node, key, parent, path, ancestors);
    },
    leave(this: ParallelVisitor, node: ASTNode, key: unknown, parent: unknown, path: unknown, ancestors: unknown) {
      return this.leaveKind(kind, node, key, parent, path, ancestors);
    },
  };
  Object.defineProperty(ParallelVisitor.prototype, kind, { value: hooks });
}

/** `rules` as one rule for graphql-js's `validate`: the same errors, in the same order. */
export function mergeRules(rules: readonly ValidationRule[]): ValidationRule {
  return (context: ValidationContext) => new ParallelVisitor(rules.map((rule) => rule(context))) as unknown as ASTVisitor;
}
