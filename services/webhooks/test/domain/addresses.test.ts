import { blockedReason, ipLiteralOf, parseIPv6 } from '../../src/domain/addresses';

describe('blockedReason (addresses a delivery may not reach)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.10.20', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::127.0.0.1', 'IPv4-compatible'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::FFFF:169.254.169.254', 'IPv4-mapped cloud metadata'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'IPv4-mapped private'],
  ])('looks through IPv4 embedded in IPv6: %s', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each([
    ['64:ff9b::192.168.0.1', 'NAT64'],
    ['64:ff9b::8.8.8.8', 'NAT64'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['64:ff9b:1::a00:1', 'NAT64 local-use'],
    ['64:ff9b:1:ffff::1', 'NAT64 local-use'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:c0a8:101::1', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001::1', 'Teredo'],
    ['fec0::1', 'site-local'],
    ['feff:ffff::1', 'site-local'],
  ])('refuses the translation and tunnel prefix %s (%s), whatever address it carries', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '192.169.0.1', '169.255.0.1', '11.0.0.1', '2606:4700:4700::1111', '2001:db8::1', '2001:1::1', '2003::1', '64:ff9c::1', '::ffff:8.8.8.8'])(
    'lets the public address %s through',
    (address) => {
      expect(blockedReason(address)).toBeNull();
    },
  );

  it('refuses what is not an IP address', () => {
    expect(blockedReason('example.com')).toBe('not an IP address');
    expect(blockedReason('1.2.3')).toBe('not an IP address');
    expect(blockedReason('256.1.1.1')).toBe('not an IP address');
  });

  it('parses the IPv6 forms into 16 bytes', () => {
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIPv6('[2001:db8::1]')).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(parseIPv6('1.2.3.4')).toBeNull();
  });

  it('recognises IP literals in URL hosts', () => {
    expect(ipLiteralOf('[::1]')).toBe('::1');
    expect(ipLiteralOf('10.0.0.1')).toBe('10.0.0.1');
    expect(ipLiteralOf('hooks.example.com')).toBeNull();
  });
});
