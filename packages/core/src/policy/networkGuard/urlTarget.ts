import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import {
  type AddressAllowances,
  type AddressClassification,
  describeBlockedAddress,
  isClassAllowed,
} from "./addressClass.js";
import { classifyAddress } from "./classifyAddress.js";
import { isLocalhostName, isMetadataHostname, normaliseHostname } from "./hostname.js";

/** Where a URL points, once everything that can be judged without the network has been. */
export type UrlTarget =
  | { ok: true; url: URL; kind: "address"; address: AddressClassification }
  | { ok: true; url: URL; kind: "name"; hostname: string }
  | { ok: false; error: LatheErrorInfo };

/**
 * The pure half of the guard: parses the URL and judges the scheme, credentials and, for address
 * literals in any spelling, the address. A name is normalised and returned for resolution.
 *
 * URLs carrying `user:password@` are refused rather than stripped: stripping would send the
 * request somewhere the caller did not describe, and the `trusted.example@127.0.0.1` trick only
 * works on a reader who mistakes the user part for the host.
 */
export function preflightUrl(input: string | URL, allowances: AddressAllowances = {}): UrlTarget {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, error: errorInfo("E_INVALID_ARGS", `Not a valid absolute URL: ${String(input)}`) };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return blocked(`Only http and https URLs may be fetched; ${url.protocol} is refused.`);
  }
  if (url.username !== "" || url.password !== "") {
    return blocked(
      `URLs with credentials (user:password@) are refused: ${redact(url)}. Send credentials in a header instead.`,
    );
  }

  // WHATWG parsing already turns every IPv4 spelling into dotted decimal; the host is still read
  // with inet_aton's rules below, because a name that getaddrinfo would take as a number must be
  // judged as that address and never handed to a resolver.
  const rawHost = url.hostname;
  if (rawHost.startsWith("[")) return judgeLiteral(url, rawHost, allowances);
  const hostname = normaliseHostname(rawHost);
  if (hostname === undefined) return blocked(`The URL ${url.href} has no usable host name.`);
  if (classifyAddress(hostname) !== undefined) return judgeLiteral(url, hostname, allowances);

  if (isMetadataHostname(hostname)) {
    return blocked(`${url.href} names a cloud metadata endpoint (${hostname}); it is refused in every mode.`);
  }
  if (isLocalhostName(hostname) && allowances.allowLoopback !== true) {
    return blocked(
      `${url.href} names the local machine (${hostname}); loopback is refused unless the user allows localhost.`,
    );
  }
  return { ok: true, url, kind: "name", hostname };
}

/** Judges one resolved or literal address: allowed with its class, or refused with a reason. */
export function judgeAddress(
  text: string,
  allowances: AddressAllowances,
): { ok: true; address: AddressClassification } | { ok: false; reason: string } {
  const address = classifyAddress(text);
  if (address === undefined) return { ok: false, reason: `${text} is not an IP address.` };
  if (!isClassAllowed(address.class, allowances))
    return { ok: false, reason: describeBlockedAddress(address) };
  return { ok: true, address };
}

export function blocked(message: string): { ok: false; error: LatheErrorInfo } {
  return { ok: false, error: errorInfo("E_NETWORK_BLOCKED", message) };
}

function judgeLiteral(url: URL, text: string, allowances: AddressAllowances): UrlTarget {
  const verdict = judgeAddress(text, allowances);
  if (!verdict.ok) return blocked(`${url.href} is refused: ${verdict.reason}`);
  return { ok: true, url, kind: "address", address: verdict.address };
}

/** The URL for messages, without the secret the caller put in it. */
function redact(url: URL): string {
  const copy = new URL(url.href);
  copy.username = copy.username === "" ? "" : "***";
  copy.password = copy.password === "" ? "" : "***";
  return copy.href;
}
