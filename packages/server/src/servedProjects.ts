import { realpath } from "node:fs/promises";
import type { SessionHub } from "./sessionHub.js";
import type { WorkspaceServices } from "./workspaceServices.js";

/**
 * The projects whose files, mentions, memories, rules and MCP servers the server reads: the one it
 * was started for, those with a session (open here or stored), and those the user opened through
 * the API. Any other directory, `/etc` say, is not a project of this server, however it is named.
 * Roots are compared as real paths, which is how every route receives them.
 */
export class ServedProjects {
  private readonly opened = new Set<string>();
  private defaultRoot: string | undefined;

  constructor(
    private readonly hub: SessionHub,
    private readonly services: WorkspaceServices | undefined,
  ) {}

  /** The user opened it: a session was created there, or the web UI named it. */
  open(projectRoot: string): void {
    this.opened.add(projectRoot);
  }

  async serves(projectRoot: string): Promise<boolean> {
    if (this.opened.has(projectRoot)) return true;
    if (this.hub.list().some((live) => live.projectRoot === projectRoot)) return true;
    if (this.services === undefined) return false;
    if ((await this.defaultProjectRoot()) === projectRoot) return true;
    const stored = await this.services.storedSessions(projectRoot);
    if (!stored.ok || stored.value.length === 0) return false;
    this.opened.add(projectRoot);
    return true;
  }

  /** The project `lathe serve` was started for, as the face reports it. */
  private async defaultProjectRoot(): Promise<string | undefined> {
    if (this.defaultRoot !== undefined || this.services === undefined) return this.defaultRoot;
    const info = await this.services.info();
    if (!info.ok) return undefined;
    this.defaultRoot = await realpath(info.value.defaultProjectRoot).catch(() => undefined);
    return this.defaultRoot;
  }
}
