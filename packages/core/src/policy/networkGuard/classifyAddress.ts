import type { AddressClass, AddressClassification, Ipv4Embedding } from "./addressClass.js";
import { formatIpv4, inIpv4Block, ipv4Block, parseIpv4Loose } from "./ipv4.js";
import { embeddedIpv4, formatIpv6, type Ipv6Bytes, inIpv6Block, ipv6Block, parseIpv6 } from "./ipv6.js";

/**
 * Cloud metadata endpoints hand out instance credentials, so they are refused even when loopback
 * and private networks are allowed: AWS/GCP/Azure/OCI/DigitalOcean (169.254.169.254), AWS ECS task
 * metadata (169.254.170.2), Alibaba (100.100.100.200), Oracle Cloud Classic (192.0.0.192), AWS IPv6
 * (fd00:ec2::254) and GCP IPv6 (fd20:ce::254).
 */
const metadataIpv4 = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192"]);
const metadataIpv6 = new Set(["fd00:ec2::254", "fd20:ce::254"]);

/** IANA special-purpose IPv4 blocks; first match wins, so the broadcast host precedes 240/4. */
const ipv4Blocks = (
  [
    ["0.0.0.0/8", "unspecified"],
    ["10.0.0.0/8", "private"],
    ["100.64.0.0/10", "cgnat"],
    ["127.0.0.0/8", "loopback"],
    ["169.254.0.0/16", "link-local"],
    ["172.16.0.0/12", "private"],
    ["192.0.0.0/24", "reserved"],
    ["192.0.2.0/24", "documentation"],
    ["192.88.99.0/24", "reserved"],
    ["192.168.0.0/16", "private"],
    ["198.18.0.0/15", "benchmarking"],
    ["198.51.100.0/24", "documentation"],
    ["203.0.113.0/24", "documentation"],
    ["224.0.0.0/4", "multicast"],
    ["255.255.255.255/32", "broadcast"],
    ["240.0.0.0/4", "reserved"],
  ] as const
).map(([cidr, addressClass]) => ({ cidr, block: ipv4Block(cidr), addressClass }));

/** IPv6 blocks judged after the embedding forms; anything outside 2000::/3 is reserved anyway. */
const ipv6Blocks = (
  [
    ["::/128", "unspecified"],
    ["::1/128", "loopback"],
    ["64:ff9b:1::/48", "reserved"],
    ["100::/64", "reserved"],
    ["2001:2::/48", "benchmarking"],
    ["2001:10::/28", "reserved"],
    ["2001:db8::/32", "documentation"],
    ["3fff::/20", "documentation"],
    ["5f00::/16", "reserved"],
    ["fc00::/7", "unique-local"],
    ["fe80::/10", "link-local"],
    ["fec0::/10", "reserved"],
    ["ff00::/8", "multicast"],
  ] as const
).map(([cidr, addressClass]) => ({ cidr, block: ipv6Block(cidr), addressClass }));

const globalUnicast = ipv6Block("2000::/3");

/**
 * IPv6 forms that carry an IPv4 address the packets may be delivered to, with where the IPv4
 * bytes sit and the class to use when that IPv4 address is public. IPv4-mapped is refused even
 * then (SPEC §5): a public site is never reached that way, and stacks disagree on what it means.
 */
const embeddings = (
  [
    ["ipv4-mapped", "::ffff:0:0/96", 12, "ipv4-mapped"],
    ["ipv4-translated", "::ffff:0:0:0/96", 12, "ipv4-mapped"],
    // Deprecated since RFC 4291; nothing legitimate uses it, so it stays refused for public IPv4 too.
    ["ipv4-compatible", "::/96", 12, "reserved"],
    ["nat64", "64:ff9b::/96", 12, "public"],
    ["6to4", "2002::/16", 2, "public"],
  ] as const satisfies readonly (readonly [Ipv4Embedding, string, number, AddressClass])[]
).map(([via, cidr, offset, whenPublic]) => ({ via, cidr, block: ipv6Block(cidr), offset, whenPublic }));

const teredo = ipv6Block("2001::/32");

/**
 * Classifies an address given as text: any IPv4 form `inet_aton` accepts, or IPv6 (brackets and
 * zone index allowed). Returns undefined for text that is not an address.
 */
export function classifyAddress(text: string): AddressClassification | undefined {
  const v4 = parseIpv4Loose(text);
  if (v4 !== undefined) return classifyIpv4(v4);
  const v6 = parseIpv6(text);
  return v6 === undefined ? undefined : classifyIpv6(v6);
}

export function classifyIpv4(address: number): AddressClassification {
  const text = formatIpv4(address);
  if (metadataIpv4.has(text)) return { address: text, family: 4, class: "metadata", range: `${text}/32` };
  for (const entry of ipv4Blocks) {
    if (inIpv4Block(address, entry.block)) {
      return { address: text, family: 4, class: entry.addressClass, range: entry.cidr };
    }
  }
  return { address: text, family: 4, class: "public", range: "global unicast" };
}

export function classifyIpv6(bytes: Ipv6Bytes): AddressClassification {
  const text = formatIpv6(bytes);
  if (metadataIpv6.has(text)) return { address: text, family: 6, class: "metadata", range: `${text}/128` };
  // :: and ::1 sit inside the IPv4-compatible block but are their own, better-known classes.
  const isUnspecifiedOrLoopback = bytes.subarray(0, 15).every((byte) => byte === 0) && (bytes[15] ?? 0) <= 1;
  if (!isUnspecifiedOrLoopback) {
    const embedded = classifyEmbedded(bytes, text);
    if (embedded !== undefined) return embedded;
  }
  for (const entry of ipv6Blocks) {
    if (inIpv6Block(bytes, entry.block)) {
      return { address: text, family: 6, class: entry.addressClass, range: entry.cidr };
    }
  }
  if (!inIpv6Block(bytes, globalUnicast)) {
    return { address: text, family: 6, class: "reserved", range: "outside 2000::/3 (not global unicast)" };
  }
  return { address: text, family: 6, class: "public", range: "global unicast" };
}

function classifyEmbedded(bytes: Ipv6Bytes, text: string): AddressClassification | undefined {
  for (const embedding of embeddings) {
    if (!inIpv6Block(bytes, embedding.block)) continue;
    const inner = classifyIpv4(embeddedIpv4(bytes, embedding.offset));
    const embedded = { via: embedding.via, ipv4: inner.address };
    if (inner.class !== "public") {
      return {
        address: text,
        family: 6,
        class: inner.class,
        range: `${inner.range} inside ${embedding.cidr}`,
        embedded,
      };
    }
    return { address: text, family: 6, class: embedding.whenPublic, range: embedding.cidr, embedded };
  }
  if (inIpv6Block(bytes, teredo)) {
    // Teredo carries the relay server in clear and the client bit-inverted; either may be the target.
    const server = classifyIpv4(embeddedIpv4(bytes, 4));
    const client = classifyIpv4(~embeddedIpv4(bytes, 12) >>> 0);
    for (const inner of [client, server]) {
      if (inner.class !== "public") {
        const embedded = { via: "teredo" as const, ipv4: inner.address };
        return {
          address: text,
          family: 6,
          class: inner.class,
          range: `${inner.range} inside 2001::/32`,
          embedded,
        };
      }
    }
    return {
      address: text,
      family: 6,
      class: "public",
      range: "2001::/32",
      embedded: { via: "teredo", ipv4: client.address },
    };
  }
  return undefined;
}
