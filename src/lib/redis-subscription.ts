import type { Redis } from 'ioredis';

/** How long after a refused SUBSCRIBE it is asked again on the same connection. */
const RETRY_MS = 2_000;

/**
 * Subscribes `connection` (made with `autoResubscribe: false`) to `channel` on each (re)connection,
 * and again every RETRY_MS while Redis refuses it (NOPERM until an ACL is put right): a refusal
 * leaves the connection up, so no new 'ready' would ask again and the process would stay deaf.
 * `subscribed` is called after each success.
 */
export function keepSubscribed(connection: Redis, channel: string, subscribed: () => void): void {
  let retry: NodeJS.Timeout | undefined;
  const subscribe = () => {
    clearTimeout(retry);
    connection.subscribe(channel).then(subscribed, () => {
      if (connection.status === 'ready') retry = setTimeout(subscribe, RETRY_MS).unref();
    });
  };
  connection.on('ready', subscribe);
  connection.on('end', () => clearTimeout(retry));
}
