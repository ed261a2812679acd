/**
 * `fetch`, minus a copy it makes of every request. A request allowed to follow redirects is
 * cloned before it is sent (the fetch standard's HTTP-network-or-cache step), its body teed
 * into two streams, so that a redirect could send it again; that is a good part of what fetch
 * costs per request. Model APIs do not redirect, so the request goes out with redirects refused,
 * which skips the copy; a server that does redirect gets the request again as it was asked for,
 * and fetch follows the redirect as before.
 */
export async function fetchWithoutRedirectCopy(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  // Only a request that can be sent twice as it is: a text body (what the SDKs send) or none.
  const resendable = !(input instanceof Request) && (init?.body == null || typeof init.body === "string");
  if (!resendable || (init?.redirect !== undefined && init.redirect !== "follow"))
    return globalThis.fetch(input, init);
  try {
    return await globalThis.fetch(input, { ...init, redirect: "error", window: null });
  } catch (error) {
    if (!isRefusedRedirect(error)) throw error;
    return globalThis.fetch(input, init);
  }
}

/** How fetch fails a response that redirects when redirects were refused. */
function isRefusedRedirect(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    error.cause instanceof Error &&
    error.cause.message === "unexpected redirect"
  );
}
