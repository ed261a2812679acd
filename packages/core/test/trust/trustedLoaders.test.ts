import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAgentDefinitions } from "../../src/agent/subagents/agentDefinitions.js";
import { loadCustomCommands } from "../../src/context/commands/index.js";
import { loadHooks } from "../../src/hooks/index.js";
import { loadMcpConfig } from "../../src/mcp/index.js";
import { loadRuleLayers } from "../../src/policy/rules/index.js";
import { createTrustBed, plantedHooks, type TrustBed } from "./trustBed.js";

let bed: TrustBed;
beforeEach(() => {
  bed = createTrustBed();
  bed.write(".lathe/hooks.json", plantedHooks);
  bed.write(".lathe/mcp.json", { mcpServers: { project: { command: "touch", args: ["/tmp/m"] } } });
  bed.write(".cursor/mcp.json", { mcpServers: { cursor: { command: "touch", args: ["/tmp/n"] } } });
  bed.write(".lathe/settings.json", {
    permissions: { allow: ["run_terminal_cmd"], deny: ["web_fetch"], ask: ["edit_file(src/**)"] },
  });
  bed.write(".lathe/settings.local.json", { permissions: { allow: ["write_file"] } });
  bed.write(".lathe/agents/helper.md", "---\ndescription: helps\n---\nHelp.\n");
  bed.write(".lathe/commands/ship.md", "Commit and push everything.\n");
});
afterEach(() => bed.cleanup());

const locations = () => ({ projectRoot: bed.projectRoot, latheHome: bed.latheHome });

describe("project files in an untrusted folder", () => {
  it("loads no project hooks, and the user's still", () => {
    writeFileSync(
      path.join(bed.latheHome, "hooks.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }),
    );
    expect(loadHooks({ ...locations(), projectTrusted: false }).hooks.map((hook) => hook.source)).toEqual([
      path.join(bed.latheHome, "hooks.json"),
    ]);
    expect(loadHooks({ ...locations(), projectTrusted: true }).hooks.map((hook) => hook.event)).toEqual([
      "Stop",
      "SessionStart",
      "PreToolUse",
    ]);
  });

  it("starts no project MCP server", () => {
    expect(loadMcpConfig({ ...locations(), projectTrusted: false, env: {} })).toEqual({
      servers: [],
      errors: [],
    });
    expect(
      loadMcpConfig({ ...locations(), projectTrusted: true, env: {} }).servers.map((server) => server.name),
    ).toEqual(["cursor", "project"]);
  });

  it("drops the project's allow rules and keeps its deny and ask rules", () => {
    const untrusted = loadRuleLayers({ ...locations(), projectTrusted: false });
    expect(untrusted.errors).toEqual([]);
    expect(untrusted.rules.map((rule) => `${rule.behavior} ${rule.text} ${rule.source}`)).toEqual([
      "ask edit_file(src/**) project",
      "deny web_fetch project",
    ]);
    const trusted = loadRuleLayers({ ...locations(), projectTrusted: true });
    expect(trusted.rules.map((rule) => `${rule.behavior} ${rule.text} ${rule.source}`)).toEqual([
      "allow run_terminal_cmd project",
      "ask edit_file(src/**) project",
      "deny web_fetch project",
      "allow write_file project-local",
    ]);
  });

  it("offers the built-in agents alone", async () => {
    const untrusted = await loadAgentDefinitions(bed.projectRoot, { projectAgents: false });
    expect(untrusted.agents.map((agent) => agent.name)).toEqual(["explore", "general"]);
    const trusted = await loadAgentDefinitions(bed.projectRoot);
    expect(trusted.agents.map((agent) => agent.name)).toEqual(["explore", "general", "helper"]);
  });

  it("offers the user's commands alone", async () => {
    writeFileSync(path.join(bed.latheHome, "commands.md"), "not in the folder");
    const untrusted = await loadCustomCommands({ ...locations(), projectCommands: false });
    expect(untrusted).toEqual({ commands: [], errors: [] });
    const trusted = await loadCustomCommands({ ...locations(), projectCommands: true });
    expect(trusted.commands.map((command) => command.name)).toEqual(["ship"]);
  });
});
