import { domainToASCII } from "node:url";

/**
 * Names that reach a cloud metadata service through the platform's own resolver, refused before
 * any lookup since that resolver may not be the one these checks run with.
 */
const metadataHostnames = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);

/**
 * Lower-case ASCII (IDNA/punycode) form without trailing dots, so `Metadata.Google.Internal.` and
 * `metadata.google.internal` are one name. Returns undefined when the name cannot be a hostname.
 */
export function normaliseHostname(hostname: string): string | undefined {
  const ascii = domainToASCII(hostname.trim());
  const stripped = ascii.replace(/\.+$/, "");
  return stripped.length === 0 ? undefined : stripped;
}

export function isMetadataHostname(normalised: string): boolean {
  return metadataHostnames.has(normalised);
}

/** RFC 6761: `localhost` and every name below it mean loopback, whatever a resolver says. */
export function isLocalhostName(normalised: string): boolean {
  return normalised === "localhost" || normalised.endsWith(".localhost");
}
