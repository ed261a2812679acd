import { lookup } from "node:dns/promises";

/** One resolver answer, as `dns.lookup(name, { all: true })` gives them. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Turns a host name into every address it has. Passed in as a plain function so tests and callers
 * with their own DNS can supply one; the guard calls it exactly once per URL it checks.
 */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (getaddrinfo, so /etc/hosts counts), all addresses in the order it gives them. */
export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, order: "verbatim" });
