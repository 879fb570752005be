/**
 * The one rule for where the server may connect on a user's behalf (image fetches, webhooks, a
 * user's own SMTP server): public unicast addresses only, unless the operator lists an address or
 * range in IMAGE_FETCH_ALLOWED_IPS. Checked when an address is saved (to refuse it with a clear
 * message) and again on every connection, after DNS, so a name that later resolves elsewhere (DNS
 * rebinding) gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions, type LookupAllOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

type TAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** The NAT64 well-known prefix, 64:ff9b::/96: its last 32 bits are an IPv4 address. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
/** IPv4-compatible addresses, ::a.b.c.d (deprecated, but some stacks still route them to IPv4). */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

const lastFourBytes = (address: ipaddr.IPv6) => new ipaddr.IPv4(address.toByteArray().slice(12));

/**
 * The address a connection really reaches: an IPv6 address that carries an IPv4 one (mapped
 * `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) stands for that IPv4
 * address, so `::ffff:127.0.0.1` and `::7f00:1` are loopback, not public IPv6. Undefined when the
 * text is not an address.
 */
export function effectiveAddress(text: string): TAddress | undefined {
  let parsed: TAddress;
  try {
    parsed = ipaddr.parse(text.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return undefined;
  }
  if (parsed.kind() === 'ipv4') return parsed;
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (v6.match(NAT64)) return lastFourBytes(v6);
  // :: and ::1 are IPv6's own unspecified and loopback addresses; both are refused either way.
  if (v6.match(IPV4_COMPATIBLE) && v6.range() !== 'unspecified' && v6.range() !== 'loopback') return lastFourBytes(v6);
  return v6;
}

function listed(address: TAddress, allowIps: readonly string[]): boolean {
  for (const allowed of allowIps) {
    if (net.isIP(allowed) !== 0) {
      const entry = effectiveAddress(allowed);
      if (entry && entry.kind() === address.kind() && entry.toString() === address.toString()) return true;
      continue;
    }
    try {
      const cidr = ipaddr.parseCIDR(allowed);
      if (address.kind() === cidr[0].kind() && address.match(cidr)) return true;
    } catch {
      // Not an address or a range: it allows nothing.
    }
  }
  return false;
}

/**
 * Whether the server may connect to `address`: a public unicast address, or one the operator
 * listed. Private, loopback, link-local (cloud metadata among them), unique-local, multicast,
 * reserved and unspecified addresses are refused, in whichever IPv6 form they are written.
 */
export function isAllowedAddress(address: string, allowIps: readonly string[]): boolean {
  const effective = effectiveAddress(address);
  if (!effective) return false;
  if (listed(effective, allowIps)) return true;
  return effective.range() === 'unicast';
}

/** The words every refusal uses; they never say what the name resolved to. */
export const NOT_ALLOWED_MESSAGE = 'This address is not allowed: it points to a private or local network.';

/** The `code` of a refusal, as it reaches a socket's error handler. */
export const ADDRESS_NOT_ALLOWED = 'EADDRNOTALLOWED';

export class AddressNotAllowedError extends Error {
  readonly code = ADDRESS_NOT_ALLOWED;
  constructor() {
    super(NOT_ALLOWED_MESSAGE);
  }
}

/**
 * Every address `host` (a name or an IP, IPv6 in brackets or not) resolves to, once all of them
 * are allowed; throws AddressNotAllowedError when any is not, and the lookup's own error when
 * the name does not resolve.
 */
export async function allowedAddressesOf(host: string, allowIps: readonly string[]): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(bare) ? [bare] : (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  if (addresses.length === 0 || !addresses.every((address) => isAllowedAddress(address, allowIps))) throw new AddressNotAllowedError();
  return addresses;
}

/**
 * Whether an address may be saved: `not_allowed` when the host is, or resolves to, an address the
 * rule refuses; `not_found` when the name does not resolve (nothing could be sent to it).
 */
export async function checkHost(host: string, allowIps: readonly string[]): Promise<'ok' | 'not_allowed' | 'not_found'> {
  try {
    await allowedAddressesOf(host, allowIps);
    return 'ok';
  } catch (error) {
    return error instanceof AddressNotAllowedError ? 'not_allowed' : 'not_found';
  }
}
export type TCheckHost = (host: string) => ReturnType<typeof checkHost>;

type TLookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup that fails for names resolving to an address the rule refuses. */
function checkedLookup(allowIps: readonly string[]) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: TLookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as LookupAddress[];
      if (list.length === 0 || !list.every((a) => isAllowedAddress(a.address, allowIps))) return callback(new AddressNotAllowedError(), '');
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** Makes an agent check the address each connection goes to: a literal IP at once, a name after DNS. */
function filtering<T extends http.Agent>(agent: T, allowIps: readonly string[]): T {
  const create = agent.createConnection.bind(agent) as (
    options: net.NetConnectOpts & { host?: string },
    listener?: (error: Error | null, socket: net.Socket) => void,
  ) => net.Socket;
  const lookupFn = checkedLookup(allowIps);
  agent.createConnection = ((options: net.TcpNetConnectOpts, listener?: (error: Error | null, socket: net.Socket) => void) => {
    if (options.host && net.isIP(options.host.replace(/^\[|\]$/g, '')) !== 0 && !isAllowedAddress(options.host, allowIps)) {
      const socket = new net.Socket();
      const refusal = new AddressNotAllowedError();
      if (listener) listener(refusal, socket);
      else process.nextTick(() => socket.destroy(refusal));
      return socket;
    }
    return create({ ...options, lookup: lookupFn as net.LookupFunction }, listener);
  }) as typeof agent.createConnection;
  return agent;
}

/** HTTP and HTTPS agents held to the address rule (no keep-alive: each request checks afresh). */
export function filteringAgents(allowIps: readonly string[]) {
  return {
    http: filtering(new http.Agent({ keepAlive: false }), allowIps),
    https: filtering(new https.Agent({ keepAlive: false }), allowIps),
  };
}
