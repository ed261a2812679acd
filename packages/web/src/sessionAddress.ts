/**
 * The open session lives in the address (`#session=ID&project=PATH`), so a reload or a shared
 * tab comes back to the same conversation, still streaming if its run goes on; so do the Cloud tab
 * and the task it shows (`&view=cloud&task=ID`).
 */
export interface SessionAddress {
  sessionId?: string;
  projectRoot?: string;
  view?: "cloud";
  cloudTaskId?: string;
}

export function readAddress(hash: string): SessionAddress {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  // An empty parameter names nothing, like an absent one.
  return {
    sessionId: params.get("session") || undefined,
    projectRoot: params.get("project") || undefined,
    view: params.get("view") === "cloud" ? "cloud" : undefined,
    cloudTaskId: params.get("task") || undefined,
  };
}

export function writeAddress(address: SessionAddress): string {
  const params = new URLSearchParams();
  if (address.projectRoot) params.set("project", address.projectRoot);
  if (address.sessionId) params.set("session", address.sessionId);
  if (address.view) params.set("view", address.view);
  if (address.cloudTaskId) params.set("task", address.cloudTaskId);
  return `#${params.toString()}`;
}

/** Changes part of the address, keeping the rest, without a new history entry. */
export function updateAddress(changes: SessionAddress): void {
  const next = { ...readAddress(window.location.hash), ...changes };
  window.history.replaceState(null, "", writeAddress(next));
}
