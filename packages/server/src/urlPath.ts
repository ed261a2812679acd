/** Decoded path segments of a URL path; undefined for a malformed escape. */
export function pathSegments(pathname: string): string[] | undefined {
  try {
    return pathname.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}
