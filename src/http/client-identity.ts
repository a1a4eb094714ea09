/**
 * Who a client is, for per-client fairness (CLIENT_UPSTREAM_CALLS_PER_MINUTE): the address its
 * connection comes from, or behind TRUST_PROXY trusted proxies the address the outermost of them
 * saw (X-Forwarded-For, read from the right: entries further left are whatever the client sent).
 * IPv6 clients are counted per /64, the block one subscriber is given. The answer is a keyed hash:
 * addresses are personal data, and are never kept or logged in clear.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { keyedHash } from '../lib/keyed-hash.js';

/** The last answer per connection: a keep-alive connection asks again and again with the same hops. */
const lastOnSocket = new WeakMap<object, { forwarded: string | undefined; trustProxy: number; id: string | undefined }>();

export function clientIdOf(req: Pick<IncomingMessage, 'socket' | 'headers'>, trustProxy: number): string | undefined {
  const header = req.headers['x-forwarded-for'];
  const forwarded = trustProxy > 0 && typeof header === 'string' ? header : undefined;
  const last = lastOnSocket.get(req.socket);
  if (last && last.forwarded === forwarded && last.trustProxy === trustProxy) return last.id;
  const socket = req.socket.remoteAddress;
  // The socket is the last hop; each trusted proxy appended the address it was reached from.
  const hops = forwarded !== undefined ? [...forwarded.split(','), socket] : [socket];
  const address = hops[Math.max(0, hops.length - 1 - trustProxy)]?.trim();
  const id = address ? keyedHash(subscriber(address)) : undefined;
  lastOnSocket.set(req.socket, { forwarded, trustProxy, id });
  return id;
}

/** An IPv4 address as is (IPv4-mapped ones unwrapped), an IPv6 one as its /64. */
function subscriber(address: string): string {
  const bare = address.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (isIP(bare) !== 6) return bare;
  const [head = '', tail] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 address (`::ffff:1.2.3.4`-like forms) fills two groups.
  const width = [...left, ...right].reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - width)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
