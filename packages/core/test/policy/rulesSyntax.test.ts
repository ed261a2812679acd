import { describe, expect, it } from "vitest";
import { formatRule, parseRule } from "../../src/policy/rules/ruleSyntax.js";

describe("parseRule", () => {
  it.each([
    ["run_terminal_cmd", { tool: "run_terminal_cmd" }],
    ["run_terminal_cmd(npm test *)", { tool: "run_terminal_cmd", specifier: "npm test *" }],
    ["  edit_file( src/** )  ", { tool: "edit_file", specifier: "src/**" }],
    ["read_file(./.env)", { tool: "read_file", specifier: "./.env" }],
    ["web_fetch(domain:example.com)", { tool: "web_fetch", specifier: "domain:example.com" }],
    ["mcp__github__*", { tool: "mcp__github__*" }],
    ["edit_file(src/(group)/**)", { tool: "edit_file", specifier: "src/(group)/**" }],
    ["run_terminal_cmd(npm run test:*)", { tool: "run_terminal_cmd", specifier: "npm run test:*" }],
    ["run_terminal_cmd(rm '*.tmp')", { tool: "run_terminal_cmd", specifier: "rm '*.tmp'" }],
    ["edit_file(/abs/path/**)", { tool: "edit_file", specifier: "/abs/path/**" }],
    ["read_file(~/.config/**)", { tool: "read_file", specifier: "~/.config/**" }],
    // Claude Code's tool names, as rules written for it and the Claude Agent SDK spell them.
    ["Bash(npm run test:*)", { tool: "run_terminal_cmd", specifier: "npm run test:*" }],
    ["Read", { tool: "read_file" }],
    ["Edit(src/**)", { tool: "edit_file", specifier: "src/**" }],
    ["Write", { tool: "write_file" }],
    ["Grep", { tool: "search_files" }],
    ["WebFetch(domain:example.com)", { tool: "web_fetch", specifier: "domain:example.com" }],
    ["bash", { tool: "bash" }],
  ])("reads %j", (text, expected) => {
    expect(parseRule(text, "allow", "user")).toEqual({
      ok: true,
      rule: { behavior: "allow", source: "user", ...expected },
    });
  });

  it.each([
    ["", "the rule is empty"],
    ["(npm test)", "names no tool"],
    ["run terminal cmd", "is not a tool name"],
    ["*", "would match every tool"],
    ["run_terminal_cmd(npm test", "without closing it"],
    ["run_terminal_cmd(npm test) extra", "without closing it"],
    ["run_terminal_cmd()", "empty specifier"],
    ["run_terminal_cmd(npm test*)", '"*" must stand alone as a word (write "npm test *")'],
    ["run_terminal_cmd(npm test && rm x)", "one simple command"],
    ["run_terminal_cmd(echo (a))", "one simple command"],
    ["run_terminal_cmd(echo $(date))", "one simple command"],
    ["run_terminal_cmd(npm test > out)", "redirections"],
    ["run_terminal_cmd(echo 'open)", "unclosed quote"],
    ["edit_file(!src/**)", "negated patterns"],
    ["edit_file(../other/**)", "cannot go above it"],
    ["web_fetch(domain:)", "needs a host name"],
    ["web_fetch(domain:https://example.com)", "bare host name"],
    ["web_fetch(domain:example.com/path)", "bare host name"],
    ["web_fetch(domain:a..b)", "is not a host name"],
  ])("refuses %j with a clear message", (text, message) => {
    const parsed = parseRule(text, "deny", "project");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });

  it("formats a rule canonically", () => {
    const parsed = parseRule(" edit_file(  src/** ) ", "allow", "user");
    expect(parsed.ok && formatRule(parsed.rule)).toBe("edit_file(src/**)");
    expect(formatRule({ tool: "mcp__x__*" })).toBe("mcp__x__*");
  });
});
