import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  checkWorkspaceTrust,
  grantWorkspaceTrust,
  projectTrusted,
  revokeWorkspaceTrust,
  trustFingerprint,
  trustRecordPath,
} from "../../src/trust/index.js";
import { createTrustBed, plantedHooks, type TrustBed } from "./trustBed.js";

let bed: TrustBed;
beforeEach(() => {
  bed = createTrustBed();
});
afterEach(() => bed.cleanup());

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const check = (settings = {}) =>
  checkWorkspaceTrust({ projectRoot: bed.projectRoot, latheHome: bed.latheHome, settings });

async function trustNow() {
  const granted = await grantWorkspaceTrust(bed.latheHome, check());
  expect(granted).toEqual({ ok: true });
}

describe("checkWorkspaceTrust", () => {
  it("needs no trust for a folder without gated files, and does not touch the record", () => {
    bed.write(".lathe/rules/style.md", "Two spaces.\n");
    bed.write(".lathe/settings.json", {
      permissions: { deny: ["run_terminal_cmd(curl *)"], ask: ["edit_file"] },
    });
    const trust = check();
    expect(trust.status).toBe("not_needed");
    expect(trust.files).toEqual([]);
    expect(projectTrusted(trust)).toBe(false);
    expect(existsSync(trustRecordPath(bed.latheHome))).toBe(false);
  });

  it("gates hooks, both MCP files, settings that allow, agents, commands and pipelines, and fingerprints paths with contents", () => {
    const hooks = JSON.stringify(plantedHooks);
    const mcp = JSON.stringify({ mcpServers: { x: { command: "touch", args: ["/tmp/m"] } } });
    const settings = JSON.stringify({ permissions: { allow: ["run_terminal_cmd"] } });
    bed.write(".lathe/hooks.json", hooks);
    bed.write(".lathe/mcp.json", mcp);
    bed.write(".cursor/mcp.json", mcp);
    bed.write(".lathe/settings.local.json", settings);
    bed.write(".lathe/agents/reviewer.md", "---\ndescription: reviews\n---\nReview.\n");
    bed.write(".lathe/agents/notes.txt", "not an agent");
    bed.write(".lathe/commands/ship.md", "Ship it.\n");
    bed.write(".lathe/pipelines/careful.md", "---\nsteps: [coder, reviewer]\nverify: npm test\n---\n");
    bed.write(".lathe/pipelines/draft.txt", "not a pipeline");
    const trust = check();
    expect(trust.status).toBe("untrusted");
    const expected = [
      { path: ".lathe/hooks.json", kind: "hooks", sha256: sha256(hooks) },
      { path: ".cursor/mcp.json", kind: "mcp", sha256: sha256(mcp) },
      { path: ".lathe/mcp.json", kind: "mcp", sha256: sha256(mcp) },
      { path: ".lathe/settings.local.json", kind: "settings", sha256: sha256(settings) },
      {
        path: ".lathe/agents/reviewer.md",
        kind: "agent",
        sha256: sha256("---\ndescription: reviews\n---\nReview.\n"),
      },
      { path: ".lathe/commands/ship.md", kind: "command", sha256: sha256("Ship it.\n") },
      {
        path: ".lathe/pipelines/careful.md",
        kind: "pipeline",
        sha256: sha256("---\nsteps: [coder, reviewer]\nverify: npm test\n---\n"),
      },
    ];
    expect(trust.files.map(({ path, kind, sha256 }) => ({ path, kind, sha256 }))).toEqual(expected);
    expect(trust.fingerprint).toBe(trustFingerprint(expected));
    // The same contents under another path is another fingerprint.
    expect(trustFingerprint([{ path: ".lathe/mcp.json", sha256: sha256(hooks) }])).not.toBe(
      trustFingerprint([{ path: ".lathe/hooks.json", sha256: sha256(hooks) }]),
    );
  });

  it("records trust in trust.json, readable by the user alone, under the folder's real path", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    const before = check();
    await trustNow();
    const file = trustRecordPath(bed.latheHome);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const record = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(record.folders)).toEqual([bed.projectRoot]);
    expect(record.folders[bed.projectRoot]).toEqual({
      fingerprint: before.fingerprint,
      files: { ".lathe/hooks.json": sha256(JSON.stringify(plantedHooks)) },
      trustedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const after = check();
    expect(after.status).toBe("trusted");
    expect(after.trustedBy).toBe("record");
    expect(projectTrusted(after)).toBe(true);
  });

  it("invalidates the trust when a gated file is edited, added or removed, naming it", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    bed.write(".lathe/agents/a.md", "---\ndescription: a\n---\nA.\n");
    await trustNow();
    const trustedPrint = check().fingerprint;

    bed.write(".lathe/hooks.json", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } });
    const edited = check();
    expect(edited.status).toBe("changed");
    expect(edited.changes).toEqual([{ path: ".lathe/hooks.json", change: "edited" }]);
    expect(edited.fingerprint).not.toBe(trustedPrint);
    expect(projectTrusted(edited)).toBe(false);

    bed.write(".lathe/hooks.json", plantedHooks);
    expect(check().status).toBe("trusted");

    bed.write(".cursor/mcp.json", { mcpServers: { s: { command: "x" } } });
    expect(check().changes).toEqual([{ path: ".cursor/mcp.json", change: "added" }]);
    bed.remove(".cursor/mcp.json");

    bed.remove(".lathe/agents/a.md");
    const removed = check();
    expect(removed.status).toBe("changed");
    expect(removed.changes).toEqual([{ path: ".lathe/agents/a.md", change: "removed" }]);
  });

  it("counts a settings file once it gains an allow rule", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    bed.write(".lathe/settings.json", { permissions: { deny: ["web_fetch"] } });
    await trustNow();
    bed.write(".lathe/settings.json", { permissions: { deny: ["web_fetch"], allow: ["run_terminal_cmd"] } });
    expect(check().changes).toEqual([{ path: ".lathe/settings.json", change: "added" }]);
  });

  it("keys the trust by the real path, so a symlinked path reaches the same record", async () => {
    bed.write(".lathe/mcp.json", { mcpServers: { s: { command: "x" } } });
    const link = path.join(bed.base, "link-to-project");
    symlinkSync(bed.projectRoot, link);
    const viaLink = checkWorkspaceTrust({ projectRoot: link, latheHome: bed.latheHome });
    expect(viaLink.projectRoot).toBe(bed.projectRoot);
    expect(await grantWorkspaceTrust(bed.latheHome, viaLink)).toEqual({ ok: true });
    const record = JSON.parse(readFileSync(trustRecordPath(bed.latheHome), "utf8"));
    expect(Object.keys(record.folders)).toEqual([bed.projectRoot]);
    expect(check().status).toBe("trusted");
    expect(checkWorkspaceTrust({ projectRoot: link, latheHome: bed.latheHome }).status).toBe("trusted");
  });

  it("reports a corrupt trust.json with a code and never overwrites it", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    const file = trustRecordPath(bed.latheHome);
    for (const corrupt of ["{ not json", JSON.stringify({ version: 2, folders: {} })]) {
      writeFileSync(file, corrupt);
      const trust = check();
      expect(trust.status).toBe("untrusted");
      expect(trust.recordError?.code).toBe("E_STORAGE");
      expect(trust.recordError?.message).toContain(file);
      const granted = await grantWorkspaceTrust(bed.latheHome, trust);
      expect(granted.ok).toBe(false);
      if (!granted.ok) expect(granted.error.code).toBe("E_STORAGE");
      const revoked = await revokeWorkspaceTrust(bed.latheHome, bed.projectRoot);
      expect(revoked.ok).toBe(false);
      expect(readFileSync(file, "utf8")).toBe(corrupt);
    }
  });

  it("trusts folders named in the settings with what lies beneath them, and not their siblings", () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    expect(check({ trustedFolders: [bed.base] })).toMatchObject({ status: "trusted", trustedBy: "setting" });
    expect(check({ trustedFolders: [bed.projectRoot] }).status).toBe("trusted");
    // `/x/project` does not trust `/x/project-evil`, nor `/x/proj` `/x/project`.
    expect(check({ trustedFolders: [`${bed.projectRoot}-evil`, path.join(bed.base, "proj")] }).status).toBe(
      "untrusted",
    );
    expect(check({ trustAllFolders: true }).status).toBe("trusted");
    expect(existsSync(trustRecordPath(bed.latheHome))).toBe(false);
  });

  it("revokes a folder's trust and leaves the others", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    await trustNow();
    expect(await revokeWorkspaceTrust(bed.latheHome, bed.projectRoot)).toEqual({ ok: true, revoked: true });
    expect(check().status).toBe("untrusted");
    expect(await revokeWorkspaceTrust(bed.latheHome, bed.projectRoot)).toEqual({ ok: true, revoked: false });
    expect(JSON.parse(readFileSync(trustRecordPath(bed.latheHome), "utf8"))).toEqual({
      version: 1,
      folders: {},
    });
  });
});
