import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, connect as netConnect, isIP, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import type { AppDeps } from '../deps';

/**
 * IPv4 ranges a tenant's URL may not reach (the special-purpose ranges of RFC 6890 that are not
 * globally reachable): the machine itself, its networks and the cloud metadata service.
 */
const REFUSED_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the machine itself
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

const REFUSED_IPV6: ReadonlyArray<readonly [string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some networks)
  ['fc00::', 7], // unique local (private)
  ['ff00::', 8], // multicast
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
];

const hex = (ipv4: string) => {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};

/**
 * Every refused range, IPv6 forms that carry an IPv4 address included: IPv4-mapped (::ffff:a.b.c.d,
 * which BlockList matches against the IPv4 rules itself), IPv4-compatible (::a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::), so no spelling of 127.0.0.1 gets through.
 */
const REFUSED = (() => {
  const list = new BlockList();
  for (const [address, prefix] of REFUSED_IPV4) {
    list.addSubnet(address, prefix, 'ipv4');
    list.addSubnet(`::${address}`, 96 + prefix, 'ipv6');
    list.addSubnet(`64:ff9b::${address}`, 96 + prefix, 'ipv6');
    list.addSubnet(`2002:${hex(address)}::`, 16 + prefix, 'ipv6');
  }
  for (const [address, prefix] of REFUSED_IPV6) list.addSubnet(address, prefix, 'ipv6');
  return list;
})();

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** `[::1]` → `::1`, `Example.COM.` → `example.com`, and an IPv6 zone (`%eth0`) dropped. */
function normalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.split('%')[0]!.toLowerCase().replace(/\.$/, '');
}

/** What is wrong with an OUTBOUND_ALLOW entry (a host name, an address or a CIDR range), if anything. */
export function outboundAllowEntryProblem(entry: string): string | null {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(normalHost(address));
  if (prefix === undefined) return family || HOST_NAME.test(entry) ? null : 'not a host name, address or CIDR range';
  const bits = Number(prefix);
  if (extra !== undefined || !family || !/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) return 'not a CIDR range';
  return null;
}

/** The guard refused a destination: the server never connected to it. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  readonly code = 'ERR_OUTBOUND_REFUSED';
  constructor(host: string) {
    super(`Outbound connection to ${host} refused: loopback, link-local, private and reserved addresses are not allowed (OUTBOUND_ALLOW)`);
  }
}

/** The guard's refusal when it is the error or one the error wraps (`cause`, as HTTP libraries wrap it), else null. */
export function outboundRefusalOf(error: unknown): OutboundRefusedError | null {
  for (let current = error, depth = 0; current && depth < 10; current = (current as { cause?: unknown }).cause, depth += 1) {
    if (current instanceof OutboundRefusedError) return current;
  }
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The one guard for every connection the server opens on a tenant's behalf (DESIGN §5): OpenID
 * Connect discovery, tokens, userinfo and keys, directories, and anything later. Addresses are
 * checked when the socket connects, after the name was resolved for that very connection, so a
 * name that resolves to a refused address is refused whatever it resolved to before (DNS
 * rebinding). OUTBOUND_ALLOW lists host names, addresses and CIDR ranges the operator
 * lets through: a provider on this machine or in the company network.
 */
export function createOutboundGuard({ config }: Pick<AppDeps, 'config'>) {
  const allowedRanges = new BlockList();
  const allowedNames = new Set<string>();
  for (const entry of config.OUTBOUND_ALLOW) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(normalHost(address));
    if (!family) allowedNames.add(normalHost(entry));
    else if (prefix === undefined) allowedRanges.addAddress(normalHost(address), family === 4 ? 'ipv4' : 'ipv6');
    else allowedRanges.addSubnet(normalHost(address), Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
  }

  function isRefusedAddress(address: string): boolean {
    const bare = normalHost(address);
    const family = isIP(bare);
    // Not an address at all: nothing to connect to that could be checked.
    if (!family) return true;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    return !allowedRanges.check(bare, type) && REFUSED.check(bare, type);
  }

  /** A literal address in a URL or socket call never reaches `lookup`, so it is checked here. */
  function assertLiteralAllowed(host: string): void {
    const bare = normalHost(host);
    if (isIP(bare) && isRefusedAddress(bare)) throw new OutboundRefusedError(bare);
  }

  /** `dns.lookup` for `net`/`tls`/`http` `lookup` options: every resolved address must be allowed. */
  function lookup(hostname: string, options: LookupAllOptions | { all?: false }, callback: LookupCallback): void {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!allowedNames.has(normalHost(hostname)) && addresses.some(({ address }) => isRefusedAddress(address))) {
        return callback(new OutboundRefusedError(hostname), []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      callback(null, first?.address ?? '', first?.family);
    });
  }

  /** `net.connect(port, host)` through the guard (ldapts `createConnection`). Throws for a refused literal address. */
  function connect(port: number, host: string): Socket {
    assertLiteralAllowed(host);
    return netConnect({ port, host, lookup });
  }

  /** `tls.connect(port, host, options)` through the guard (ldapts `createSecureConnection`). */
  function connectTls(port: number, host: string, options: ConnectionOptions = {}): TLSSocket {
    assertLiteralAllowed(host);
    return tlsConnect({ ...options, port, host, lookup });
  }

  /**
   * `fetch` through the guard, for libraries that take a custom fetch (openid-client). Node's own
   * fetch takes no `lookup` (that needs undici's Agent, which is not a dependency of the server), so
   * this sends with `node:http(s)`: no connection reuse (every request is checked anew), redirects
   * never followed (the caller sees the 3xx).
   */
  async function guardedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : null;
    if (!send) throw new TypeError(`Only http and https URLs are fetched, not ${url.protocol}`);
    assertLiteralAllowed(url.hostname);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const answer = (incoming: IncomingMessage) => {
        const headers = new Headers();
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        const status = incoming.statusCode ?? 502;
        const bodiless = request.method === 'HEAD' || [204, 205, 304].includes(status);
        if (bodiless) incoming.resume();
        resolve(
          new Response(bodiless ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), { status, statusText: incoming.statusMessage, headers }),
        );
      };
      const outgoing = send(
        url,
        { method: request.method, headers: Object.fromEntries(request.headers), lookup, signal: request.signal, agent: false },
        answer,
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  /**
   * Why the server may not reach this URL's host now, or null: checked when an admin saves it, for a
   * clear answer then. A name that does not resolve yet is let through (the connection is checked
   * again anyway); one resolving to any refused address is not.
   */
  async function destinationProblem(rawUrl: string): Promise<string | null> {
    let host: string;
    try {
      host = normalHost(new URL(rawUrl).hostname);
    } catch {
      return 'The address is not a URL.';
    }
    const refused = 'The server may not connect to this address: it is on this machine, a private network or a reserved range.';
    if (!host) return 'The address has no host.';
    if (allowedNames.has(host)) return null;
    if (isIP(host)) return isRefusedAddress(host) ? refused : null;
    const addresses = await new Promise<LookupAddress[]>((resolve) => dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found)));
    return addresses.some(({ address }) => isRefusedAddress(address)) ? refused : null;
  }

  return { lookup, connect, connectTls, fetch: guardedFetch, destinationProblem };
}

export type OutboundGuard = ReturnType<typeof createOutboundGuard>;
