import { describe, expect, it } from "vitest";
import { splitToolList } from "../src/agentSdk/claudeFlags.js";
import { parseCliArgs } from "../src/cliArgs.js";

describe("Claude Code's flags, as the Claude Agent SDK passes them", () => {
  it("maps the ones Lathe has and sets the others aside as ignored", () => {
    const parsed = parseCliArgs(
      [
        "--output-format",
        "stream-json",
        "--verbose",
        "--input-format",
        "stream-json",
        "--max-turns=3",
        "--model=openai:gpt-4.1",
        "--permission-prompt-tool=stdio",
        "--permission-mode=acceptEdits",
        "--allowedTools=Bash(git log:*),Read",
        "--disallowedTools=Write",
        "--setting-sources=",
        "--strict-mcp-config",
        "--mcp-config",
        '{"mcpServers":{}}',
        "--include-partial-messages",
      ],
      "/work",
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.args).toMatchObject({
      outputFormat: "stream-json",
      inputFormat: "stream-json",
      maxIterations: 3,
      model: "openai:gpt-4.1",
      permissionPromptTool: "stdio",
      claudePermissionMode: "acceptEdits",
      mode: "agent",
      approvalMode: "auto_edit",
      allowRules: ["Bash(git log:*)", "Read"],
      denyRules: ["Write"],
      includePartialMessages: true,
      ignoredFlags: ["--setting-sources", "--strict-mcp-config", "--mcp-config"],
      prompt: undefined,
    });
  });

  it("takes --append-system-prompt as instructions for every request", () => {
    const parsed = parseCliArgs(["-p", "hi", "--append-system-prompt=Answer in French."], "/work");
    expect(parsed.ok && parsed.args.appendSystemPrompt).toBe("Answer in French.");
  });

  it("lets Lathe's own --approval-mode win over a permission mode", () => {
    const parsed = parseCliArgs(
      ["-p", "hi", "--permission-mode=default", "--approval-mode", "manual"],
      "/work",
    );
    expect(parsed.ok && [parsed.args.approvalMode, parsed.args.mode]).toEqual(["manual", "agent"]);
  });

  it.each([
    [["--permission-mode=sometimes"], "--permission-mode must be one of"],
    [["--input-format", "stream-json"], "needs --output-format stream-json"],
    [
      ["--output-format", "stream-json", "--input-format", "xml"],
      "--input-format must be text or stream-json",
    ],
    [["--permission-prompt-tool=mcp__auth__ask"], '--permission-prompt-tool takes only "stdio"'],
    [["--allowedTools=Bash(rm"], "--allow:"],
  ])("refuses %j", (argv, message) => {
    const parsed = parseCliArgs(argv, "/work");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.message).toContain(message);
  });
});

describe("splitToolList", () => {
  it.each([
    ["Read,Edit", ["Read", "Edit"]],
    ["Bash(git log:*) Read", ["Bash(git log:*)", "Read"]],
    ["Bash(npm run build, test:*),Write", ["Bash(npm run build, test:*)", "Write"]],
    [" , ", []],
  ])("splits %j", (list, rules) => {
    expect(splitToolList(list)).toEqual(rules);
  });
});
