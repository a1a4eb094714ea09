/**
 * Requests a node:cluster worker makes of its primary over IPC, each answered by one message of
 * `answerType` that carries the request's id. One listener serves every request of that type.
 */
export function primaryRequests<A extends { id: number }>(answerType: string) {
  const waiting = new Map<number, (answer: A | Error | undefined) => void>();
  let nextId = 0;
  let listening = false;
  /**
   * Sends `message` with a fresh id: the primary's answer, the Error that kept it from being sent,
   * or undefined when none came within `timeoutMs`.
   */
  return (message: { type: string; [field: string]: unknown }, timeoutMs: number): Promise<A | Error | undefined> => {
    if (!listening) {
      listening = true;
      process.on('message', (answer: Partial<A> & { type?: unknown }) => {
        if (answer?.type === answerType && typeof answer.id === 'number') waiting.get(answer.id)?.(answer as A);
      });
    }
    const id = ++nextId;
    return new Promise((resolve) => {
      const settle = (answer?: A | Error) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(answer);
      };
      const timer = setTimeout(settle, timeoutMs);
      waiting.set(id, settle);
      process.send?.({ ...message, id }, (error: Error | null) => error && settle(error));
    });
  };
}
