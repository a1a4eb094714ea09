/**
 * The upstream answer bytes one GraphQL request may use. Each distinct answer body counts once,
 * cached ones too: the response grows with them whoever fetched them. An answer that does not fit
 * fails its field, and the request keeps what it already has.
 */
export class ResponseBudget {
  private used = 0;
  /** Bumped by rewind(): a body's uses counted in an earlier run are forgotten. */
  private run = 0;
  /** Per body: how many fields it has been charged for, and how many have used it in `run`. */
  private readonly bodies = new WeakMap<Buffer, { paid: number; uses: number; run: number }>();

  constructor(readonly maxBytes: number) {}

  /** Counts `body` unless counted before; false when it does not fit. */
  charge(body: Buffer): boolean {
    if (this.bodies.has(body)) return true;
    if (!this.fits(body)) return false;
    this.bodies.set(body, { paid: 1, uses: 0, run: this.run });
    return true;
  }

  /**
   * One more field answers with `body`. A lookup shared by aliases is charged once by charge();
   * each further field that repeats it in the response counts again, so 30 aliases of one large
   * answer cost 30 times its size, as the response does. False when it does not fit.
   */
  use(body: Buffer): boolean {
    const entry = this.bodies.get(body) ?? { paid: 0, uses: 0, run: this.run };
    this.bodies.set(body, entry);
    if (entry.run !== this.run) Object.assign(entry, { uses: 0, run: this.run });
    if (++entry.uses <= entry.paid) return true;
    if (!this.fits(body)) return false;
    entry.paid++;
    return true;
  }

  /**
   * The same operation runs again (compiled-execution.ts re-runs a query on graphql-js): its fields
   * use what the first run paid for before paying anew, so the answer is charged once.
   */
  rewind(): void {
    this.run++;
  }

  private fits(body: Buffer): boolean {
    if (this.used + body.length > this.maxBytes) return false;
    this.used += body.length;
    return true;
  }
}
