import { BlockList, isIP } from "node:net";

/** How far forwarding headers are believed. */
export type TrustedProxies = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "list"; list: BlockList };

/** Parses WEFT_TRUSTED_PROXIES: "" or "0" = none, "1".."10" = hops, else comma-separated addresses and CIDRs. Throws on anything else. */
export function parseTrustedProxies(raw: string | undefined): TrustedProxies {
  const text = (raw ?? "").trim();
  if (text === "" || text === "0") return { kind: "none" };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10) throw new Error("a number of proxies must be 0-10");
    return { kind: "hops", hops };
  }
  const list = new BlockList();
  for (const item of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address = "", prefix] = item.split("/");
    const family = isIP(address);
    if (!family) throw new Error(`"${item}" is not an IP address or CIDR range`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 6 ? 128 : 32))
        throw new Error(`"${item}" has a bad prefix length`);
      list.addSubnet(address, bits, type);
    }
  }
  return { kind: "list", list };
}
