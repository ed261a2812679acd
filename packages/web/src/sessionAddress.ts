/**
 * The open session lives in the address (`#session=ID&project=PATH`), so a reload or a shared
 * tab comes back to the same conversation, still streaming if its run goes on.
 */
export interface SessionAddress {
  sessionId?: string;
  projectRoot?: string;
}

export function readAddress(hash: string): SessionAddress {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  // An empty parameter names nothing, like an absent one.
  return { sessionId: params.get("session") || undefined, projectRoot: params.get("project") || undefined };
}

export function writeAddress(address: SessionAddress): string {
  const params = new URLSearchParams();
  if (address.projectRoot) params.set("project", address.projectRoot);
  if (address.sessionId) params.set("session", address.sessionId);
  return `#${params.toString()}`;
}
