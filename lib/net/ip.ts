import { BlockList, isIP } from "node:net";

/**
 * Address ranges no tool may reach (X4): everything that is not global unicast — loopback, RFC 1918,
 * link-local (incl. cloud metadata 169.254.169.254), CGNAT 100.64/10, unspecified, multicast,
 * reserved/documentation/benchmark ranges, ULA fc00::/7, IPv4-mapped/compatible IPv6, NAT64 and
 * 6to4/Teredo (they embed IPv4 addresses).
 */
const blocked4 = new BlockList();
// Separate lists: a BlockList checks IPv4 addresses against IPv6 rules as ::ffff:a.b.c.d.
const blocked6 = new BlockList();
const v4: Array<[string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const v6: Array<[string, number]> = [
  ["::", 128],
  ["::1", 128],
  ["::", 96],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];
for (const [net, prefix] of v4) blocked4.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of v6) blocked6.addSubnet(net, prefix, "ipv6");

/** True when `address` (a literal IPv4/IPv6) is anything but a public unicast address. Non-IPs count as private. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 4) return blocked4.check(bare, "ipv4");
  if (family === 6) return blocked6.check(bare, "ipv6");
  return true;
}
