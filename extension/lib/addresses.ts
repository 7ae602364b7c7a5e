// Which hosts are on the public web, judged from the address alone: the extension cannot resolve
// names (and must not wait for DNS), so an IP literal is judged by its range, and a name by what
// only a local network can answer for: `localhost` and `*.localhost`, a single label ("intranet",
// "wiki"), and the suffixes set aside for private networks. The server's SSRF guard judges the
// resolved address (backend/images/address-policy.ts); this is the same rule for the literals.
import ipaddr from 'ipaddr.js';

/**
 * Names no public DNS answers for: `.local` (mDNS), `.internal` (ICANN, for private use),
 * `.home.arpa` (RFC 8375), and `.lan`, `.home`, `.corp`, which routers and companies use and ICANN
 * will never delegate.
 */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'lan', 'home', 'corp'];

/** 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052): the last 32 bits are the IPv4 reached. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** The IPv4 address an IPv6 literal stands for (mapped, compatible, NAT64), as the server judges it. */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const [a, b, c, d, e, f, g, h] = ip.parts as [number, number, number, number, number, number, number, number];
  const last32 = () => new ipaddr.IPv4([g >> 8, g & 0xff, h >> 8, h & 0xff]);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && (g !== 0 || h > 1)) return last32();
  return ip.match(NAT64) ? last32() : null;
}

/** An IP literal's verdict: plain unicast only (not loopback, private, link-local, unspecified…). */
function publicAddress(literal: string): boolean {
  const ip = ipaddr.parse(literal);
  const judged = ip.kind() === 'ipv6' ? (embeddedIPv4(ip as ipaddr.IPv6) ?? ip) : ip;
  return judged.range() === 'unicast';
}

/**
 * Whether a URL's `hostname` (as the URL parser writes it: IPv4 dotted, IPv6 in brackets,
 * lower-case) is on the public web. Anything unsure is not.
 */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(literal)) return publicAddress(literal);
  if (!host.includes('.')) return false; // a single label: only an intranet's DNS answers for it
  return !PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}
