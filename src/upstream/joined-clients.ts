/**
 * The clients that joined a call another client started (coalesce.ts): a queue that serves calls
 * in turns by client (UniSat's call budget) serves the call in their turns too. Without it a joiner
 * waited in the starter's turn: one client that queued its own share of calls and then a popular
 * resource made every client asking for that resource wait out its backlog, and be refused.
 */
export class JoinedClients {
  private readonly clients = new Set<string>();
  private readonly listeners = new Set<(client: string) => void>();

  /** `client` waits for the call too. */
  add(client: string): void {
    if (this.clients.has(client)) return;
    this.clients.add(client);
    for (const listener of this.listeners) listener(client);
  }

  /** Calls `listener` with each client that waits for the call, now and as they join; answers how to stop. */
  each(listener: (client: string) => void): () => void {
    for (const client of this.clients) listener(client);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
