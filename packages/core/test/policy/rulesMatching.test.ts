import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callSubjects } from "../../src/policy/callSubjects.js";
import type { PermissionRule, PolicyBehavior } from "../../src/policy/policyTypes.js";
import { evaluateRules } from "../../src/policy/rules/ruleEvaluation.js";
import { parseRule } from "../../src/policy/rules/ruleSyntax.js";

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-rules-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function rules(lists: Partial<Record<PolicyBehavior, string[]>>): PermissionRule[] {
  return (["deny", "ask", "allow"] as const).flatMap((behavior) =>
    (lists[behavior] ?? []).map((text) => {
      const parsed = parseRule(text, behavior, "project");
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    }),
  );
}

function verdict(
  lists: Partial<Record<PolicyBehavior, string[]>>,
  tool: string,
  args: Record<string, unknown>,
) {
  return evaluateRules(rules(lists), tool, callSubjects(tool, args), root);
}

const cmd = (command: string) => ({ command });

describe("command rules", () => {
  const allowNpmTest = { allow: ["run_terminal_cmd(npm test *)"] };

  it.each([
    ["npm test", "allow"],
    ["npm test -- foo", "allow"],
    ["npm  test   --watch=false", "allow"],
    ['"npm" "test"', "allow"],
    ["npm testing", undefined],
    ["npm tes", undefined],
    ["npm", undefined],
    ["npx npm test", undefined],
    ["npm test && rm -rf x", undefined],
    ["npm test || rm -rf x", undefined],
    ["npm test; rm -rf x", undefined],
    ["npm test | sh", undefined],
    ["npm test & rm -rf x", undefined],
    ["npm test\nrm -rf x", undefined],
    ["npm test $(rm -rf x)", undefined],
    ["npm test `rm -rf x`", undefined],
    ["npm test > package.json", undefined],
    ["npm test >> out.log", undefined],
    ["npm test 2>&1", "allow"],
    ["npm test > /dev/null 2>&1", "allow"],
    ["npm test < input.txt", "allow"],
    ["(npm test)", "allow"],
    ["{ npm test; }", "allow"],
    ["if npm test; then echo ok; fi", undefined],
    ["npm test 'unclosed", undefined],
    ["$NPM test", undefined],
    ["CI=1 npm test", undefined],
    ["npm test # && rm -rf x", "allow"],
    ["npm test '&& rm -rf x'", "allow"],
    ['npm test "$(rm -rf x)"', undefined],
  ] as const)("allow npm test *: %j → %s", (command, expected) => {
    expect(verdict(allowNpmTest, "run_terminal_cmd", cmd(command))?.behavior).toBe(expected);
  });

  it("allows a compound command only when every segment is allowed, naming every rule used", () => {
    const lists = {
      allow: ["run_terminal_cmd(npm test *)", "run_terminal_cmd(git status)", "run_terminal_cmd(echo *)"],
    };
    expect(verdict(lists, "run_terminal_cmd", cmd("npm test && git status | echo done"))).toEqual({
      behavior: "allow",
      rule: "run_terminal_cmd(npm test *), run_terminal_cmd(git status), run_terminal_cmd(echo *)",
    });
    expect(verdict(lists, "run_terminal_cmd", cmd("git status --short"))).toBeUndefined();
    expect(verdict(lists, "run_terminal_cmd", cmd("echo $(git status)"))?.behavior).toBe("allow");
    expect(verdict(lists, "run_terminal_cmd", cmd("echo $(git log)"))).toBeUndefined();
    expect(verdict(lists, "run_terminal_cmd", cmd("if npm test; then echo ok; fi"))?.behavior).toBe("allow");
  });

  it.each([
    "rm -rf build",
    "echo hi && rm -rf build",
    "echo hi; rm x",
    "ls | xargs rm",
    "sudo rm -rf build",
    "sudo -u root rm x",
    "env FOO=1 rm x",
    "FOO=1 rm x",
    "/bin/rm x",
    "command rm x",
    "timeout 5 rm x",
    "bash -c 'rm -rf build'",
    'sh -c "echo a; rm b"',
    "eval rm x",
    "echo $(rm x)",
    "echo `rm x`",
    "cat <(rm x)",
    "r\\m x",
    "'rm' x",
    "$'\\x72m' x",
    "if true; then rm x; fi",
    "(cd sub && rm x)",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    'echo "${X:-$(rm x)}"',
  ])("deny rm *: any segment or disguise of %j denies", (command) => {
    const result = verdict(
      { deny: ["run_terminal_cmd(rm *)"], allow: ["run_terminal_cmd"] },
      "run_terminal_cmd",
      cmd(command),
    );
    expect(result).toEqual({ behavior: "deny", rule: "run_terminal_cmd(rm *)" });
  });

  it.each([
    "echo 'rm -rf x'",
    "grep rm file",
    "npm run rm",
    "echo rm",
    "cat <<EOF\nrm x\nEOF",
  ])("deny rm *: %j is not rm", (command) => {
    expect(verdict({ deny: ["run_terminal_cmd(rm *)"] }, "run_terminal_cmd", cmd(command))).toBeUndefined();
  });

  it("reads a here-document body as data, but its substitutions as commands", () => {
    const deny = { deny: ["run_terminal_cmd(rm *)"] };
    expect(verdict(deny, "run_terminal_cmd", cmd("cat <<EOF\n$(rm x)\nEOF"))?.behavior).toBe("deny");
    expect(verdict(deny, "run_terminal_cmd", cmd("cat <<'EOF'\n$(rm x)\nEOF"))).toBeUndefined();
    const allowCat = { allow: ["run_terminal_cmd(cat *)"] };
    expect(verdict(allowCat, "run_terminal_cmd", cmd("cat <<EOF\nrm -rf x\nEOF"))?.behavior).toBe("allow");
    expect(verdict(allowCat, "run_terminal_cmd", cmd("cat <<EOF\nrm -rf x"))).toBeUndefined();
  });

  it("matches exact commands without a wildcard, and the old `:*` spelling as a prefix", () => {
    expect(
      verdict({ allow: ["run_terminal_cmd(git status)"] }, "run_terminal_cmd", cmd("git status"))?.behavior,
    ).toBe("allow");
    expect(
      verdict({ allow: ["run_terminal_cmd(git status)"] }, "run_terminal_cmd", cmd("git status -s")),
    ).toBeUndefined();
    const legacy = { allow: ["run_terminal_cmd(npm run test:*)"] };
    expect(verdict(legacy, "run_terminal_cmd", cmd("npm run test --watch"))?.behavior).toBe("allow");
    expect(verdict(legacy, "run_terminal_cmd", cmd("npm run testing"))).toBeUndefined();
  });

  it("matches a wildcard in the middle against any words", () => {
    const lists = { allow: ["run_terminal_cmd(git * --oneline)"] };
    expect(verdict(lists, "run_terminal_cmd", cmd("git log -5 --oneline"))?.behavior).toBe("allow");
    expect(verdict(lists, "run_terminal_cmd", cmd("git --oneline"))?.behavior).toBe("allow");
    expect(verdict(lists, "run_terminal_cmd", cmd("git log --oneline -5"))).toBeUndefined();
  });

  it("a tool rule without a specifier allows every call of it", () => {
    expect(
      verdict({ allow: ["run_terminal_cmd"] }, "run_terminal_cmd", cmd("anything at all; rm x")),
    ).toEqual({
      behavior: "allow",
      rule: "run_terminal_cmd",
    });
  });
});

describe("deny > ask > allow", () => {
  it("ranks behaviors whatever the order or layer of the rules", () => {
    const all: PermissionRule[] = [
      { behavior: "allow", tool: "run_terminal_cmd", source: "cli" },
      { behavior: "ask", tool: "run_terminal_cmd", specifier: "git push *", source: "project-local" },
      { behavior: "deny", tool: "run_terminal_cmd", specifier: "git push --force *", source: "user" },
    ];
    const decide = (command: string) => evaluateRules(all, "run_terminal_cmd", { paths: [], command }, root);
    expect(decide("git push --force origin main")?.behavior).toBe("deny");
    expect(decide("git push origin main")?.behavior).toBe("ask");
    expect(decide("git status")?.behavior).toBe("allow");
    expect(decide("git status && git push origin")?.behavior).toBe("ask");
  });

  it("returns undefined when no rule speaks to the call", () => {
    expect(verdict({ allow: ["read_file(src/**)"] }, "write_file", { path: "src/a.ts" })).toBeUndefined();
    expect(verdict({}, "read_file", { path: "a" })).toBeUndefined();
  });
});

describe("path rules", () => {
  mkdirSync(path.join(root, "src", "deep"), { recursive: true });
  mkdirSync(path.join(root, "vendor"), { recursive: true });
  writeFileSync(path.join(root, ".env"), "SECRET=1");
  symlinkSync(path.join(root, ".env"), path.join(root, "src", "innocent.txt"));
  symlinkSync(path.join(root, "vendor"), path.join(root, "src", "vendored"));

  it.each([
    ["edit_file(src/**)", "src/a.ts", "allow"],
    ["edit_file(src/**)", "src/deep/b.ts", "allow"],
    ["edit_file(src/**)", "./src/deep/../c.ts", "allow"],
    ["edit_file(src/**)", `${root}/src/a.ts`, "allow"],
    ["edit_file(src/**)", "lib/a.ts", undefined],
    ["edit_file(src/**)", "src2/a.ts", undefined],
    ["edit_file(src/**)", "src/../lib/a.ts", undefined],
    ["edit_file(src/**)", "src/vendored/x.ts", undefined],
    ["edit_file(src/**)", "src/innocent.txt", undefined],
    ["edit_file(*.lock)", "package.lock", "allow"],
    ["edit_file(*.lock)", "a/b/yarn.lock", "allow"],
    ["edit_file(./.env)", ".env", "allow"],
    ["edit_file(./.env)", "sub/.env", undefined],
    ["edit_file(src)", "src/deep/b.ts", "allow"],
    ["edit_file(/tmp/lathe-abs/**)", "/tmp/lathe-abs/x", "allow"],
    ["edit_file(/tmp/lathe-abs)", "/tmp/lathe-abs/x/y", "allow"],
    ["edit_file(/tmp/lathe-abs/**)", "/tmp/lathe-abs-evil/x", undefined],
  ] as const)("allow %s, %s → %s", (rule, file, expected) => {
    expect(verdict({ allow: [rule] }, "edit_file", { path: file })?.behavior).toBe(expected);
  });

  it("denies through symlinks, different case, and every tool of the family", () => {
    const deny = { deny: ["read_file(./.env)"], allow: ["read_file"] };
    expect(verdict(deny, "read_file", { path: "src/innocent.txt" })?.behavior).toBe("deny");
    expect(verdict(deny, "read_file", { path: ".ENV" })?.behavior).toBe("deny");
    expect(verdict(deny, "search_files", { pattern: "x", path: ".env" })?.behavior).toBe("deny");
    expect(verdict(deny, "read_file", { path: "src/a.ts" })?.behavior).toBe("allow");
    const denyEdit = { deny: ["edit_file(./.env)"] };
    for (const tool of ["edit_file", "write_file", "multi_edit", "delete_file"]) {
      expect(verdict(denyEdit, tool, { path: ".env" })?.behavior).toBe("deny");
    }
    const patch = "*** Begin Patch\n*** Add File: .env\n+X=1\n*** End Patch";
    expect(verdict(denyEdit, "apply_patch", { patch })?.behavior).toBe("deny");
  });

  it("allows a patch only when every file in it is allowed", () => {
    const allow = { allow: ["edit_file(src/**)"] };
    const patch = (...files: string[]) =>
      `*** Begin Patch\n${files.map((file) => `*** Add File: ${file}\n+x`).join("\n")}\n*** End Patch`;
    expect(verdict(allow, "apply_patch", { patch: patch("src/a.ts", "src/b.ts") })?.behavior).toBe("allow");
    expect(verdict(allow, "apply_patch", { patch: patch("src/a.ts", "README.md") })).toBeUndefined();
  });

  it("does not let an allow on editing cover deleting", () => {
    expect(verdict({ allow: ["edit_file(src/**)"] }, "delete_file", { path: "src/a.ts" })).toBeUndefined();
  });
});

describe("domain and MCP rules", () => {
  it.each([
    ["https://example.com/a", "allow"],
    ["https://docs.example.com/a?b", "allow"],
    ["http://EXAMPLE.com.:8080/", "allow"],
    ["https://example.com.evil.net/", undefined],
    ["https://notexample.com/", undefined],
    ["https://evil.net/?u=https://example.com", undefined],
    ["https://example.com@evil.net/", undefined],
    ["not a url", undefined],
  ] as const)("domain:example.com, %s → %s", (url, expected) => {
    expect(verdict({ allow: ["web_fetch(domain:example.com)"] }, "web_fetch", { url })?.behavior).toBe(
      expected,
    );
  });

  it("matches subdomains only with *.", () => {
    const lists = { allow: ["web_fetch(domain:*.example.com)"] };
    expect(verdict(lists, "web_fetch", { url: "https://example.com/" })).toBeUndefined();
    expect(verdict(lists, "web_fetch", { url: "https://a.example.com/" })?.behavior).toBe("allow");
  });

  it("matches MCP tools by wildcard", () => {
    const lists = { allow: ["mcp__github__*"], deny: ["mcp__github__delete_*"] };
    expect(verdict(lists, "mcp__github__list_issues", {})?.behavior).toBe("allow");
    expect(verdict(lists, "mcp__github__delete_repo", {})?.behavior).toBe("deny");
    expect(verdict(lists, "mcp__gitlab__list_issues", {})).toBeUndefined();
    expect(verdict(lists, "mcp__github_evil__x", {})).toBeUndefined();
  });
});
