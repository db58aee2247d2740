import { isIP } from 'node:net';

interface Range {
  bytes: number[];
  bits: number;
  name: string;
}

function v4(cidr: string, name: string): Range {
  const [address, bits] = cidr.split('/');
  return { bytes: parseIPv4(address!)!, bits: Number(bits), name };
}

function v6(cidr: string, name: string): Range {
  const [address, bits] = cidr.split('/');
  return { bytes: parseIPv6(address!)!, bits: Number(bits), name };
}

/**
 * What a delivery may not reach unless private targets are allowed: anything that is not a public unicast address,
 * so that a webhook cannot be aimed at the platform's own network, its loopback or a cloud metadata service.
 */
const IPV4_BLOCKED: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-grade NAT'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.169.254/32', 'cloud metadata'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'IETF protocol assignments'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_BLOCKED: Range[] = [
  v6('::1/128', 'loopback'),
  v6('::/128', 'unspecified'),
  v6('fd00:ec2::254/128', 'cloud metadata'),
  v6('fc00::/7', 'unique local'),
  v6('fe80::/10', 'link-local'),
  v6('ff00::/8', 'multicast'),
  // Deprecated IPv4-compatible addresses (::a.b.c.d): nothing public lives there.
  v6('::/96', 'IPv4-compatible'),
  // Deprecated site-local addresses: a private network by another name.
  v6('fec0::/10', 'site-local'),
  // Translation and tunnel prefixes: a gateway on the way turns them into an IPv4 address (or another host) that the
  // check never saw, possibly one of the platform's own network. Refused whatever address they carry.
  v6('64:ff9b::/96', 'NAT64'),
  v6('64:ff9b:1::/48', 'NAT64 local-use'),
  v6('2002::/16', '6to4'),
  v6('2001::/32', 'Teredo'),
];

/** IPv6 addresses that are an IPv4 address seen through an IPv6 socket: the IPv4 address is what gets reached. */
const IPV4_EMBEDDING: Range[] = [v6('::ffff:0:0/96', 'IPv4-mapped')];

export function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : null;
}

export function parseIPv6(text: string): number[] | null {
  let address = text.replace(/^\[|\]$/g, '');
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  if (isIP(address) !== 6) return null;
  let tail: number[] = [];
  if (address.includes('.')) {
    const lastColon = address.lastIndexOf(':');
    const embedded = parseIPv4(address.slice(lastColon + 1));
    if (!embedded) return null;
    tail = embedded;
    // `::ffff:1.2.3.4` keeps `::ffff`, `::1.2.3.4` keeps `::`.
    address = address.slice(0, lastColon + 1);
    if (!address.endsWith('::')) address = address.slice(0, -1);
  }
  const groupsWanted = 8 - tail.length / 2;
  const [head, rest] = address.includes('::') ? address.split('::') : [address, undefined];
  const toGroups = (part: string | undefined) => (part ? part.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const first = toGroups(head);
  const last = toGroups(rest);
  const zeros = rest === undefined ? 0 : groupsWanted - first.length - last.length;
  const groups = [...first, ...Array<number>(zeros).fill(0), ...last];
  if (groups.length !== groupsWanted) return null;
  return [...groups.flatMap((g) => [g >> 8, g & 0xff]), ...tail];
}

function inRange(bytes: number[], range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/**
 * Why an address may not be reached ("loopback", "private", ...), or null for a public address. Something that is
 * not an IP address at all is refused too.
 */
export function blockedReason(address: string): string | null {
  const ipv4 = parseIPv4(address);
  if (ipv4) return IPV4_BLOCKED.find((r) => inRange(ipv4, r))?.name ?? null;
  const ipv6 = parseIPv6(address);
  if (!ipv6) return 'not an IP address';
  for (const embedding of IPV4_EMBEDDING) {
    if (inRange(ipv6, embedding)) {
      const inner = IPV4_BLOCKED.find((r) => inRange(ipv6.slice(12), r));
      return inner ? `${embedding.name} ${inner.name}` : null;
    }
  }
  return IPV6_BLOCKED.find((r) => inRange(ipv6, r))?.name ?? null;
}

/** Whether a URL host is an IP literal (brackets of IPv6 removed). */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) === 0 ? null : bare;
}
