/**
 * IPv4 text forms. `parseIpv4Loose` accepts everything the C library's `inet_aton` (and so
 * `getaddrinfo`, `curl`, browsers' URL parsers) turns into an address, because an SSRF check that
 * only knows dotted decimal lets `2130706433`, `0177.0.0.1` or `0x7f.1` through to a resolver that
 * reads them as 127.0.0.1.
 */

/**
 * Parses an IPv4 address in any `inet_aton` form: one to four parts, each decimal, octal (leading
 * `0`) or hex (`0x`), the last part filling the remaining bytes (`127.1`, `10.1.65535`,
 * `2130706433`); one trailing dot is accepted, as the URL standard does. Returns the address as
 * an unsigned 32-bit number, or undefined when the text is not an IPv4 address (then it is a
 * hostname).
 */
export function parseIpv4Loose(text: string): number | undefined {
  const trimmed = text.endsWith(".") ? text.slice(0, -1) : text;
  if (trimmed.length === 0) return undefined;
  const parts = trimmed.split(".");
  if (parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    const value = parseIpv4Part(part);
    if (value === undefined) return undefined;
    values.push(value);
  }
  const last = values.pop() ?? 0;
  let address = 0;
  for (const value of values) {
    if (value > 0xff) return undefined;
    address = address * 0x100 + value;
  }
  // The last part fills every byte the earlier parts left: 4 bytes alone, 1 byte after three parts.
  const lastBytes = 4 - values.length;
  if (last >= 2 ** (8 * lastBytes)) return undefined;
  return address * 2 ** (8 * lastBytes) + last;
}

/** Dotted decimal exactly (`a.b.c.d`, no leading zeros), as inside IPv6 text and resolver answers. */
export function parseIpv4Strict(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let address = 0;
  for (const part of parts) {
    // Leading zeros are refused because readers disagree on them (octal for inet_aton, decimal elsewhere).
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 0xff) return undefined;
    address = address * 0x100 + value;
  }
  return address;
}

export function formatIpv4(address: number): string {
  return [address >>> 24, (address >>> 16) & 0xff, (address >>> 8) & 0xff, address & 0xff].join(".");
}

/** Parses a CIDR block like `127.0.0.0/8` into a base and a mask, both unsigned. */
export function ipv4Block(cidr: string): { base: number; mask: number; bits: number } {
  const [text, bitsText] = cidr.split("/");
  const base = parseIpv4Strict(text ?? "");
  const bits = Number(bitsText);
  if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) {
    throw new Error(`Bad IPv4 block ${cidr}`);
  }
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (base & mask) >>> 0, mask, bits };
}

export function inIpv4Block(address: number, block: { base: number; mask: number }): boolean {
  return (address & block.mask) >>> 0 === block.base;
}

function parseIpv4Part(part: string): number | undefined {
  if (part.length === 0) return undefined;
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    // `0x` alone is zero for inet_aton and the URL standard alike.
    if (digits.length === 0) return 0;
  } else if (part.length > 1 && part.startsWith("0")) {
    digits = part.slice(1);
    radix = 8;
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return undefined;
  const value = Number.parseInt(digits, radix);
  // Anything at or above 2^32 cannot be part of an address; guarding here also keeps values exact.
  return value <= 0xffffffff ? value : undefined;
}
