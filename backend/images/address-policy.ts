import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// Which addresses a server-side fetch (a pin's picture, a page's pictures) may connect to: plain unicast only, so a
// pin's URL can't reach loopback, the private network, link-local metadata services
// (169.254.169.254), multicast or the unspecified address (0.0.0.0 reaches this host).

type IP = ipaddr.IPv4 | ipaddr.IPv6;

/** 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052): the last 32 bits are the IPv4 reached. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

export interface AddressPolicy {
  allows(address: string): boolean;
}

/**
 * The IPv4 address an IPv6 address stands for, where it says so plainly: IPv4-mapped
 * (::ffff:a.b.c.d, which the kernel connects to as IPv4), IPv4-compatible (::a.b.c.d, deprecated,
 * but a tunnel could still carry it) and well-known-prefix NAT64 (a DNS64 network's answer for an
 * IPv4-only host). 6to4, Teredo, the other NAT64 prefixes and the rest are not unicast to ipaddr.js
 * and so are refused without looking inside.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const [a, b, c, d, e, f, g, h] = ip.parts as [number, number, number, number, number, number, number, number];
  const fromLast32 = () => new ipaddr.IPv4([g >> 8, g & 0xff, h >> 8, h & 0xff]);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  // :: and ::1 are ranges of their own (unspecified, loopback); the rest of ::/96 embeds IPv4.
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && (g !== 0 || h > 1)) return fromLast32();
  if (ip.match(NAT64)) return fromLast32();
  return null;
}

/** The address judged: IPv6 forms that stand for IPv4 are judged as that IPv4. */
function unwrap(ip: IP): IP {
  return ip.kind() === 'ipv6' ? (embeddedIPv4(ip as ipaddr.IPv6) ?? ip) : ip;
}

function parse(address: string): IP | null {
  try {
    return ipaddr.parse(address);
  } catch {
    return null;
  }
}

/**
 * `allowCidrs` lets through addresses that would otherwise be refused: for tests (a local server)
 * and special deployments (an intranet image host) only. Invalid CIDRs are a programming or
 * configuration error (backend/config.ts validates FETCH_ALLOW_CIDRS) and throw.
 */
export function addressPolicy(allowCidrs: readonly string[] = []): AddressPolicy {
  const allowed = allowCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  const inAllowed = (ip: IP) => allowed.some((range) => range[0].kind() === ip.kind() && ip.match(range));
  return {
    allows(address) {
      const raw = parse(address);
      if (!raw) return false;
      const ip = unwrap(raw);
      if (inAllowed(ip) || inAllowed(raw)) return true;
      return ip.range() === 'unicast';
    },
  };
}

/** An address `lookup` refused; the caller turns it into its own error. */
export class BlockedAddressError extends Error {
  readonly hostname: string;
  readonly address: string;
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, which is not allowed`);
    this.hostname = hostname;
    this.address = address;
  }
}

/**
 * A `lookup` for net/tls.connect (undici's `connect` option): resolves once, refuses the host if ANY
 * of its addresses is refused (a name with one public and one private address could otherwise be
 * steered to the private one), and hands the checked addresses to the connect that asked, so no
 * second resolution (DNS rebinding) happens between check and connection. Both families are
 * resolved and checked whatever family the caller asked for.
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    dns.lookup(hostname, { all: true, family: 0, hints: options.hints ?? 0, ...(options.order ? { order: options.order } : {}) }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !policy.allows(entry.address));
      if (refused) return callback(new BlockedAddressError(hostname, refused.address), '', 0);
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const wanted = family === 4 || family === 6 ? addresses.filter((entry) => entry.family === family) : addresses;
      const first = wanted[0];
      if (!first) {
        const notFound: NodeJS.ErrnoException = new Error(`${hostname} has no address of family ${family}`);
        notFound.code = 'ENOTFOUND';
        return callback(notFound, '', 0);
      }
      if (options.all) return callback(null, wanted);
      return callback(null, first.address, first.family);
    });
  };
}
