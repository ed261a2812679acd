import { formatIpv4, parseIpv4Strict } from "./ipv4.js";

/** An IPv6 address as its 16 bytes, so ranges are compared on values and never on spellings. */
export type Ipv6Bytes = Uint8Array;

/**
 * Parses IPv6 text (`::1`, `fe80::1%eth0`, `::ffff:127.0.0.1`, `[2001:db8::1]`) into 16 bytes.
 * Brackets from URLs and a zone index from resolver answers are dropped: the zone only picks an
 * interface and never changes which range the address is in. Returns undefined for anything else.
 */
export function parseIpv6(text: string): Ipv6Bytes | undefined {
  let body = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = body.indexOf("%");
  if (zone >= 0) body = body.slice(0, zone);
  if (!body.includes(":")) return undefined;

  const lastColon = body.lastIndexOf(":");
  const tail = body.slice(lastColon + 1);
  if (tail.includes(".")) {
    // A dotted IPv4 tail (`::ffff:1.2.3.4`) stands for the last two groups.
    const v4 = parseIpv4Strict(tail);
    if (v4 === undefined) return undefined;
    body = `${body.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }

  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0] ?? "");
  const rest = halves.length === 2 ? parseGroups(halves[1] ?? "") : [];
  if (head === undefined || rest === undefined) return undefined;
  const groups: number[] = [];
  if (halves.length === 2) {
    const zeros = 8 - head.length - rest.length;
    // `::` stands for at least one group of zeros.
    if (zeros < 1) return undefined;
    groups.push(...head, ...new Array<number>(zeros).fill(0), ...rest);
  } else {
    if (head.length !== 8) return undefined;
    groups.push(...head);
  }

  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >>> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** RFC 5952 text: lower case, leading zeros dropped, the longest run of two or more zero groups as `::`. */
export function formatIpv6(bytes: Ipv6Bytes): string {
  const groups: number[] = [];
  for (let index = 0; index < 16; index += 2)
    groups.push(((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(":");
  const left = hex.slice(0, bestStart).join(":");
  const right = hex.slice(bestStart + bestLength).join(":");
  return `${left}::${right}`;
}

/** The IPv4 address held in four bytes of an IPv6 address, starting at `offset`. */
export function embeddedIpv4(bytes: Ipv6Bytes, offset: number): number {
  return (
    (((bytes[offset] ?? 0) << 24) |
      ((bytes[offset + 1] ?? 0) << 16) |
      ((bytes[offset + 2] ?? 0) << 8) |
      (bytes[offset + 3] ?? 0)) >>>
    0
  );
}

export function embeddedIpv4Text(bytes: Ipv6Bytes, offset: number): string {
  return formatIpv4(embeddedIpv4(bytes, offset));
}

/** A CIDR block like `fc00::/7`, kept as bytes and a prefix length. */
export interface Ipv6Block {
  bytes: Ipv6Bytes;
  bits: number;
}

export function ipv6Block(cidr: string): Ipv6Block {
  const [text, bitsText] = cidr.split("/");
  const bytes = parseIpv6(text ?? "");
  const bits = Number(bitsText);
  if (bytes === undefined || !Number.isInteger(bits) || bits < 0 || bits > 128) {
    throw new Error(`Bad IPv6 block ${cidr}`);
  }
  return { bytes, bits };
}

export function inIpv6Block(address: Ipv6Bytes, block: Ipv6Block): boolean {
  const wholeBytes = Math.floor(block.bits / 8);
  for (let index = 0; index < wholeBytes; index++) {
    if (address[index] !== block.bytes[index]) return false;
  }
  const remainder = block.bits % 8;
  if (remainder === 0) return true;
  const mask = (0xff << (8 - remainder)) & 0xff;
  return ((address[wholeBytes] ?? 0) & mask) === ((block.bytes[wholeBytes] ?? 0) & mask);
}

function parseGroups(text: string): number[] | undefined {
  if (text.length === 0) return [];
  const groups: number[] = [];
  for (const group of text.split(":")) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
    groups.push(Number.parseInt(group, 16));
  }
  return groups;
}
