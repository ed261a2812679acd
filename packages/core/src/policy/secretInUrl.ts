/**
 * Shorter values are not treated as keys: a placeholder such as "x" would otherwise refuse every
 * URL that happens to contain the letter (the redactor skips them for the same reason).
 */
const minSecretLength = 8;

/**
 * Whether a URL carries one of the known keys, as written or percent-encoded (`%73k-…` reaches
 * the server as `sk-…`), anywhere: a key in the host name leaks through the DNS query alone.
 */
export function urlCarriesSecret(url: string, secrets: readonly string[]): boolean {
  const usable = secrets.filter((secret) => secret.length >= minSecretLength);
  if (usable.length === 0) return false;
  // Without regard to case: URL parsing lowercases a host name before it is resolved.
  const forms = [url, decodedOrSame(url), decodedOrSame(decodedOrSame(url))].map((form) =>
    form.toLowerCase(),
  );
  return usable.some((secret) => forms.some((form) => form.includes(secret.toLowerCase())));
}

function decodedOrSame(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A stray `%` that starts no escape: what is left undecoded is still compared as written.
    return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}
