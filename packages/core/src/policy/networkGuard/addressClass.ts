/**
 * What kind of destination an address is. Only `public` is reachable by default; `loopback` and
 * the private kinds can be opened by options; every other kind is refused in every mode.
 */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "unique-local"
  | "link-local"
  | "cgnat"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "reserved"
  | "benchmarking"
  | "documentation"
  | "ipv4-mapped"
  | "metadata";

/** How an IPv6 address carries an IPv4 one that the traffic may end up at. */
export type Ipv4Embedding =
  | "ipv4-mapped"
  | "ipv4-compatible"
  | "ipv4-translated"
  | "6to4"
  | "nat64"
  | "teredo";

export interface AddressClassification {
  /** Canonical text: dotted decimal, or RFC 5952 IPv6 without brackets. */
  address: string;
  family: 4 | 6;
  class: AddressClass;
  /** The block that decided, for messages (`127.0.0.0/8`, `fc00::/7`). */
  range: string;
  /** Set when the class came from an IPv4 address inside an IPv6 one. */
  embedded?: { via: Ipv4Embedding; ipv4: string };
}

/** Options that open classes which are otherwise refused (the browser tool's "localhost allowed"). */
export interface AddressAllowances {
  /** 127.0.0.0/8 and ::1, also when written as an IPv4-mapped or other embedding form. */
  allowLoopback?: boolean;
  /** RFC 1918 (10/8, 172.16/12, 192.168/16) and IPv6 unique-local (fc00::/7). */
  allowPrivate?: boolean;
}

const classNames: Record<AddressClass, string> = {
  public: "a public address",
  loopback: "a loopback address",
  private: "a private-network address",
  "unique-local": "an IPv6 unique-local (private) address",
  "link-local": "a link-local address",
  cgnat: "a carrier-grade NAT (shared) address",
  multicast: "a multicast address",
  unspecified: "an unspecified ('this host') address",
  broadcast: "the broadcast address",
  reserved: "a reserved or non-routable address",
  benchmarking: "a benchmarking address",
  documentation: "a documentation-only address",
  "ipv4-mapped": "an IPv4-mapped IPv6 address",
  metadata: "a cloud metadata endpoint",
};

/** True when the options let a connection go to an address of this class. */
export function isClassAllowed(addressClass: AddressClass, allowances: AddressAllowances): boolean {
  switch (addressClass) {
    case "public":
      return true;
    case "loopback":
      return allowances.allowLoopback === true;
    case "private":
    case "unique-local":
      return allowances.allowPrivate === true;
    default:
      // Metadata, link-local, multicast and the rest are never a legitimate fetch target.
      return false;
  }
}

/** One sentence naming the address, how it was reached and its class, for E_NETWORK_BLOCKED. */
export function describeBlockedAddress(classification: AddressClassification): string {
  const via = classification.embedded
    ? ` (it carries ${classification.embedded.ipv4} via the ${classification.embedded.via} form)`
    : "";
  const openable =
    classification.class === "loopback"
      ? "; loopback is refused unless the user allows localhost"
      : classification.class === "private" || classification.class === "unique-local"
        ? "; private networks are refused unless the user allows them"
        : classification.class === "metadata"
          ? "; metadata endpoints are refused in every mode"
          : "";
  return `${classification.address}${via} is ${classNames[classification.class]} (${classification.range})${openable}.`;
}
