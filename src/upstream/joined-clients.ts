/**
 * The clients that joined a call another client started (coalesce.ts): a queue that serves calls
 * in turns by client (UniSat's call budget) serves the call in their turns too. Without it a joiner
 * waited in the starter's turn: one client that queued its own share of calls and then a popular
 * resource made every client asking for that resource wait out its backlog, and be refused.
 * Made for every coalesced miss, most of which nobody joins: its sets exist once needed.
 */
export class JoinedClients {
  private clients: Set<string> | undefined;
  private listeners: Set<(client: string) => void> | undefined;

  /** `client` waits for the call too. */
  add(client: string): void {
    this.clients ??= new Set();
    if (this.clients.has(client)) return;
    this.clients.add(client);
    if (this.listeners) for (const listener of this.listeners) listener(client);
  }

  /** Calls `listener` with each client that waits for the call, now and as they join; answers how to stop. */
  each(listener: (client: string) => void): () => void {
    if (this.clients) for (const client of this.clients) listener(client);
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }
}
