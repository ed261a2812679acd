import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLathe } from "./latheProcess.js";
import { plantedRepository } from "./trustFixture.js";

const trust = (repo: { home: string; userHome: string }, args: string[]) =>
  runLathe(["trust", ...args], { home: repo.home, env: { HOME: repo.userHome } });

describe("lathe trust", () => {
  it("shows the files, trusts them, lists the folder, and revokes it", async () => {
    const repo = plantedRepository();
    const status = await trust(repo, ["--status", repo.root, "--json"]);
    expect(status.code).toBe(0);
    const before = JSON.parse(status.stdout);
    expect(before).toMatchObject({
      projectRoot: repo.root,
      status: "untrusted",
      trusted: false,
      changes: [],
    });
    expect(before.files.map((file: { path: string }) => file.path)).toEqual([
      ".lathe/hooks.json",
      ".cursor/mcp.json",
      ".lathe/mcp.json",
      ".lathe/settings.json",
      ".lathe/agents/planted.md",
    ]);
    expect(before.files[1].effects).toEqual([
      `MCP server "cursor" runs: sh -c 'touch ${join(repo.markers, "mcp-cursor")}'`,
    ]);

    const granted = await trust(repo, [repo.root]);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(
      `Trusted ${repo.root}. These project files now take effect in its sessions:\n  .lathe/hooks.json\n    SessionStart hook runs: touch ${join(repo.markers, "session-start")}\n`,
    );
    expect(statSync(join(repo.home, "trust.json")).mode & 0o777).toBe(0o600);
    expect(repo.markersNow()).toEqual([]);

    const listed = JSON.parse((await trust(repo, ["--list", "--json"])).stdout);
    expect(listed.folders).toEqual([
      {
        projectRoot: repo.root,
        trustedAt: expect.any(String),
        files: [
          ".cursor/mcp.json",
          ".lathe/agents/planted.md",
          ".lathe/hooks.json",
          ".lathe/mcp.json",
          ".lathe/settings.json",
        ],
        status: "trusted",
        changes: [],
      },
    ]);

    repo.write(".lathe/mcp.json", { mcpServers: {} });
    const changed = await trust(repo, ["--list"]);
    expect(changed.stdout).toContain(`${repo.root}  trusted `);
    expect(changed.stdout).toContain("changed since: .lathe/mcp.json (edited)");

    const revoked = await trust(repo, ["--revoke", repo.root, "--json"]);
    expect(JSON.parse(revoked.stdout)).toEqual({ folder: repo.root, revoked: true });
    expect(JSON.parse(readFileSync(join(repo.home, "trust.json"), "utf8"))).toEqual({
      version: 1,
      folders: {},
    });
  });

  it("refuses to write over a corrupt record, with a coded message, and leaves it as it was", async () => {
    const repo = plantedRepository();
    writeFileSync(join(repo.home, "trust.json"), "{ half a record");
    const run = await trust(repo, [repo.root]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The workspace trust record ${join(repo.home, "trust.json")} is not JSON`);
    expect(run.stderr).toContain("Lathe will not overwrite it");
    expect(readFileSync(join(repo.home, "trust.json"), "utf8")).toBe("{ half a record");
  });

  it("prints its help, and says when there is nothing to trust", async () => {
    const repo = plantedRepository();
    const help = await trust(repo, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: lathe trust [DIR] [options]");
    const empty = await trust(repo, [repo.userHome]);
    expect(empty.stderr).toBe("");
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe(
      `${repo.userHome} has no project hooks, MCP servers, allow rules or agents: nothing to trust.\n`,
    );
    const misuse = await trust(repo, ["--list", "--revoke"]);
    expect(misuse.code).toBe(2);
  });
});
