import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkWorkspaceTrust, describeGatedFiles, untrustedNotice } from "../../src/trust/index.js";
import { createTrustBed, plantedHooks, type TrustBed } from "./trustBed.js";

// biome-ignore lint/suspicious/noTemplateCurlyInString: the variable syntax of MCP config files, not JavaScript's
const tokenVariable = "${env:TOKEN}";

let bed: TrustBed;
beforeEach(() => {
  bed = createTrustBed();
});
afterEach(() => bed.cleanup());

describe("describeGatedFiles", () => {
  it("says what each file would run or grant, with env variables as written", () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    bed.write(".lathe/mcp.json", {
      mcpServers: {
        local: { command: "node", args: ["server.js", "--token", tokenVariable, "two words"] },
        remote: { url: "https://example.com/mcp" },
      },
    });
    bed.write(".lathe/settings.json", { permissions: { allow: ["run_terminal_cmd", "edit_file(src/**)"] } });
    bed.write(".lathe/agents/reviewer.md", "---\nname: code-reviewer\ndescription: reviews\n---\nReview.\n");
    bed.write(".cursor/mcp.json", "{ broken");
    bed.write(".lathe/commands/ship.md", "Ship it.\n");
    bed.write(
      ".lathe/pipelines/careful.md",
      "---\nname: slow-and-sure\nsteps: [coder]\nverify: npm test\n---\n",
    );
    bed.write(".lathe/pipelines/plain.md", "Be brief.\n");
    const trust = checkWorkspaceTrust({ projectRoot: bed.projectRoot, latheHome: bed.latheHome });
    expect(describeGatedFiles(trust.projectRoot, trust.files)).toEqual([
      {
        path: ".lathe/hooks.json",
        kind: "hooks",
        effects: [
          "SessionStart hook runs: touch /tmp/marker-1",
          "PreToolUse (read_file) hook runs: touch /tmp/marker-2",
        ],
      },
      {
        path: ".cursor/mcp.json",
        kind: "mcp",
        effects: ["not valid JSON: it would be reported as an error, not run"],
      },
      {
        path: ".lathe/mcp.json",
        kind: "mcp",
        effects: [
          `MCP server "local" runs: node server.js --token '${tokenVariable}' 'two words'`,
          'MCP server "remote" connects to https://example.com/mcp',
        ],
      },
      {
        path: ".lathe/settings.json",
        kind: "settings",
        effects: ["allows run_terminal_cmd", "allows edit_file(src/**)"],
      },
      {
        path: ".lathe/agents/reviewer.md",
        kind: "agent",
        effects: ['sub-agent "code-reviewer" with its own instructions and tools'],
      },
      {
        path: ".lathe/commands/ship.md",
        kind: "command",
        effects: ["slash command /ship with its own prompt text"],
      },
      {
        path: ".lathe/pipelines/careful.md",
        kind: "pipeline",
        effects: [
          'cloud pipeline "slow-and-sure" with its own steps and agent instructions',
          "verify runs: npm test",
        ],
      },
      {
        path: ".lathe/pipelines/plain.md",
        kind: "pipeline",
        effects: ['cloud pipeline "plain" with its own steps and agent instructions'],
      },
    ]);
  });
});

describe("untrustedNotice", () => {
  it("names each ignored file, what changed, and how to trust the folder", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    const fresh = checkWorkspaceTrust({ projectRoot: bed.projectRoot, latheHome: bed.latheHome });
    expect(untrustedNotice(fresh)).toBe(
      [
        `${bed.projectRoot} is not trusted, so these project files were ignored (nothing in them ran):`,
        "  .lathe/hooks.json",
        "    SessionStart hook runs: touch /tmp/marker-1",
        "    PreToolUse (read_file) hook runs: touch /tmp/marker-2",
        "Read them, then trust the folder with `lathe trust` (or run with --trust) to use them.",
      ].join("\n"),
    );
    const changed = {
      ...fresh,
      status: "changed" as const,
      changes: [{ path: ".lathe/hooks.json", change: "edited" as const }],
    };
    expect(untrustedNotice(changed)?.split("\n")[0]).toBe(
      `Files of ${bed.projectRoot} changed since you trusted it: .lathe/hooks.json (edited).`,
    );
    expect(untrustedNotice({ ...fresh, status: "trusted" })).toBeUndefined();
  });
});
