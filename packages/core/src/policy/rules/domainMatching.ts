export type ParsedDomain =
  | { ok: true; domain: string; subdomainsOnly: boolean }
  | { ok: false; message: string };

/**
 * `domain:example.com` (the host and every subdomain) or `domain:*.example.com` (subdomains only).
 * Written as a host name, without a scheme, port or path, so that it means the same for every URL.
 */
export function parseDomainSpecifier(specifier: string): ParsedDomain {
  const written = specifier.slice("domain:".length).trim();
  const subdomainsOnly = written.startsWith("*.");
  const host = (subdomainsOnly ? written.slice(2) : written).toLowerCase().replace(/\.$/, "");
  if (host === "") return { ok: false, message: "domain: needs a host name, e.g. domain:example.com" };
  if (/[/:?#@\s]/.test(host)) {
    return { ok: false, message: `domain:${written} must be a bare host name, without scheme, port or path` };
  }
  const canonical = canonicalHost(host);
  if (canonical === undefined || host.split(".").some((label) => label === "")) {
    return { ok: false, message: `domain:${written} is not a host name` };
  }
  return { ok: true, domain: canonical, subdomainsOnly };
}

/** Whether the URL's host is the domain or one of its subdomains (never a look-alike suffix). */
export function urlMatchesDomain(url: string, domain: ParsedDomain & { ok: true }): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return false;
  }
  if (host === domain.domain) return !domain.subdomainsOnly;
  return host.endsWith(`.${domain.domain}`);
}

/** The form `URL` gives a host, so that `domain:EXAMPLE.com` and internationalised names compare equal. */
function canonicalHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}
