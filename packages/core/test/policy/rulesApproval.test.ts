import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callSubjects } from "../../src/policy/callSubjects.js";
import { ruleForApproval } from "../../src/policy/rules/approvalRule.js";
import { evaluateRules } from "../../src/policy/rules/ruleEvaluation.js";
import { parseRule } from "../../src/policy/rules/ruleSyntax.js";

const projectRoot = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-approval-")));
afterAll(() => rmSync(projectRoot, { recursive: true, force: true }));

function derive(tool: string, args: Record<string, unknown>) {
  return ruleForApproval(tool, callSubjects(tool, args), {
    projectRoot,
    latheHome: path.join(projectRoot, "..", "home"),
  });
}

describe("ruleForApproval", () => {
  it.each([
    ["npm test -- foo", ["run_terminal_cmd(npm test *)"]],
    ["npm test", ["run_terminal_cmd(npm test *)"]],
    ["npm run build -- --watch", ["run_terminal_cmd(npm run build *)"]],
    ["ls", ["run_terminal_cmd(ls *)"]],
    ["ls -la src", ["run_terminal_cmd(ls *)"]],
    ["git commit -m 'fix: a thing'", ["run_terminal_cmd(git commit *)"]],
    ['echo "hello world" there', ["run_terminal_cmd(echo *)"]],
    ["npm run build && npm test", ["run_terminal_cmd(npm run build *)", "run_terminal_cmd(npm test *)"]],
    ["npm test | tee out.log", ["run_terminal_cmd(npm test *)", "run_terminal_cmd(tee out.log)"]],
    ["CI=1 npm test", ["run_terminal_cmd(CI=1 npm test *)"]],
    ["./scripts/check.sh --fast", ["run_terminal_cmd(./scripts/check.sh *)"]],
    ["bash scripts/build.sh", ["run_terminal_cmd(bash scripts/build.sh *)"]],
    ["cargo test --release", ["run_terminal_cmd(cargo test *)"]],
    ["echo $(git rev-parse HEAD)", ["run_terminal_cmd(echo *)", "run_terminal_cmd(git rev-parse *)"]],
    // Nothing may be generalised: the command exactly as approved.
    ["find . -name x -delete", ["run_terminal_cmd(find . -name x -delete)"]],
    ["find . -name '*.tmp' -delete", ["run_terminal_cmd(find . -name '*.tmp' -delete)"]],
    ["taskset 1 npm test", ["run_terminal_cmd(taskset 1 npm test)"]],
    ["git -c a=b log", ["run_terminal_cmd(git -c a=b log)"]],
    ["git -C sub status", ["run_terminal_cmd(git -C sub status)"]],
    ["git grep -n todo", ["run_terminal_cmd(git grep -n todo)"]],
    ["git rebase main", ["run_terminal_cmd(git rebase main)"]],
    ["git fetch origin", ["run_terminal_cmd(git fetch origin)"]],
    ["npm install left-pad", ["run_terminal_cmd(npm install left-pad)"]],
    ["npm --prefix sub test", ["run_terminal_cmd(npm --prefix sub test)"]],
    ["rg --pre ./cat.sh x", ["run_terminal_cmd(rg --pre ./cat.sh x)"]],
    ["make test", ["run_terminal_cmd(make test)"]],
    ["git", ["run_terminal_cmd(git)"]],
    ["bash", ["run_terminal_cmd(bash)"]],
    ["sort -o out.txt in.txt", ["run_terminal_cmd(sort -o out.txt in.txt)"]],
    ["node --require ./hook.js app.js", ["run_terminal_cmd(node --require ./hook.js app.js)"]],
    ["../tools/find . -delete", ["run_terminal_cmd(../tools/find . -delete)"]],
    ["/usr/bin/git status", ["run_terminal_cmd(/usr/bin/git status *)"]],
    ["/usr/bin/find . -delete", ["run_terminal_cmd(/usr/bin/find . -delete)"]],
  ])("derives %j → %j", (command, rules) => {
    expect(derive("run_terminal_cmd", { command })).toEqual({ ok: true, rules });
  });

  /**
   * For each approved command, what "always" saves must not allow its dangerous neighbours: the
   * same program with an option or argument that runs other code.
   */
  it.each([
    [
      "find . -name x -delete",
      [
        "find . -exec sh -c 'touch marker' ';'",
        "find . -name x -delete -exec sh ';'",
        "find . -execdir sh ';'",
      ],
    ],
    ["taskset 1 npm test", ["taskset 1 sh", "taskset 1 npm test && sh", "taskset 1 bash -c 'touch marker'"]],
    [
      "git -c a=b log",
      ["git -c core.pager='touch marker' log", "git -c a=b log -c core.pager=sh", "git -c a=b grep -O sh x"],
    ],
    [
      "git log --oneline",
      ["git log --oneline --output=.lathe/hooks.json", "git -c core.pager=sh log --oneline"],
    ],
    ["git status", ["git -c core.fsmonitor='touch marker' status", "git grep -O sh x"]],
    ["npm test", ["npm exec evil", "npx evil", "npm install evil"]],
    ["rg --pre ./cat.sh x", ["rg --pre sh x", "rg --pre ./cat.sh x --hostname-bin sh"]],
    ["make test", ["make test --eval='x:;touch marker'", "make --eval='x:;sh' test"]],
    ["sort -o out.txt in.txt", ["sort --compress-program=sh in.txt"]],
    ["git rebase main", ["git rebase -x 'touch marker' main"]],
  ])("the rule saved for %j does not allow %j", (approved, neighbours) => {
    const derived = derive("run_terminal_cmd", { command: approved });
    if (!derived.ok) throw new Error(derived.reason);
    const rules = derived.rules.map((text) => {
      const parsed = parseRule(text, "allow", "session");
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    });
    const judge = (command: string) =>
      evaluateRules(rules, "run_terminal_cmd", callSubjects("run_terminal_cmd", { command }), projectRoot);
    expect(judge(approved)?.behavior, approved).toBe("allow");
    for (const neighbour of neighbours) expect(judge(neighbour), neighbour).toBeUndefined();
  });

  it.each([
    ["$CMD test", "chooses its program at run time"],
    ["npm $SCRIPT", "only known at run time"],
    ["npm run $SCRIPT", "only known at run time"],
    ["rm $TARGET", "only known at run time"],
    ["rm *.tmp", "only known at run time"],
    ["$(which npm) test", "chooses its program at run time"],
    ["npm test > out.txt", "writes to files"],
    ["npm test 'open", "cannot be read in full"],
    ["bash -c 'npm test'", "runs code given inline"],
    ["python3 -c 'print(1)'", "runs code given inline"],
    ["node -e 'x'", "runs code given inline"],
    ["eval npm test", "runs the command in its arguments"],
    ["sudo npm test", "runs the command in its arguments"],
    ["xargs rm", "runs the command in its arguments"],
    ["env npm test", "runs the command in its arguments"],
    ["npm test && sudo reboot", "runs the command in its arguments"],
    ["X=1", "only sets variables"],
  ])("refuses to derive a rule for %j", (command, reason) => {
    const derived = derive("run_terminal_cmd", { command });
    expect(derived.ok).toBe(false);
    if (!derived.ok) expect(derived.reason).toContain(reason);
  });

  it("refuses for a blocked call", () => {
    expect(ruleForApproval("run_terminal_cmd", { paths: [], command: "ls" }, { blocked: true })).toEqual({
      ok: false,
      reason: "the call is blocked by policy",
    });
  });

  it("derives the path itself, anchored at the project, with glob characters escaped", () => {
    expect(derive("edit_file", { path: "src/a.ts" })).toEqual({ ok: true, rules: ["edit_file(./src/a.ts)"] });
    expect(derive("edit_file", { path: `${projectRoot}/src/./b.ts` })).toEqual({
      ok: true,
      rules: ["edit_file(./src/b.ts)"],
    });
    expect(derive("write_file", { path: "docs/[draft] *.md" })).toEqual({
      ok: true,
      rules: ["write_file(./docs/\\[draft\\] \\*.md)"],
    });
    expect(derive("list_directory", { path: "." })).toEqual({ ok: true, rules: ["list_directory"] });
    const patch =
      "*** Begin Patch\n*** Add File: a.ts\n+x\n*** Update File: b.ts\n*** Move to: c.ts\n@@\n-x\n+y\n*** End Patch";
    expect(derive("apply_patch", { patch })).toEqual({
      ok: true,
      rules: ["apply_patch(./a.ts)", "apply_patch(./b.ts)", "apply_patch(./c.ts)"],
    });
  });

  it("never derives a rule for a sensitive path", () => {
    for (const file of [
      ".env",
      ".lathe/settings.json",
      ".lathe/settings.local.json",
      ".lathe/hooks.json",
      ".cursor/mcp.json",
      ".git/hooks/pre-commit",
      ".bashrc",
      "keys/server.pem",
    ]) {
      const derived = derive("edit_file", { path: file });
      expect(derived.ok).toBe(false);
    }
  });

  it("derives the host for a URL, and the tool alone for a call with no subject", () => {
    expect(derive("web_fetch", { url: "https://docs.example.com/a?b=1" })).toEqual({
      ok: true,
      rules: ["web_fetch(domain:docs.example.com)"],
    });
    expect(derive("terminal_output", { id: "t1" })).toEqual({ ok: true, rules: ["terminal_output"] });
  });

  it.each([
    ["run_terminal_cmd", { command: "npm test -- foo" }],
    ["run_terminal_cmd", { command: "npm run build && npm test" }],
    ["run_terminal_cmd", { command: 'echo "hello world" there' }],
    ["run_terminal_cmd", { command: "find . -name '*.tmp' -delete" }],
    ["run_terminal_cmd", { command: "git -c a=b log" }],
    ["run_terminal_cmd", { command: "printf '%s\\n' 'it''s' \"\"" }],
    ["edit_file", { path: "docs/[draft] *.md" }],
    ["edit_file", { path: "src/(group)/page{1}.tsx" }],
    ["web_fetch", { url: "https://docs.example.com/x" }],
  ] as const)("the derived rules allow the very call they came from (%s %j)", (tool, args) => {
    const derived = derive(tool, args);
    if (!derived.ok) throw new Error(derived.reason);
    const rules = derived.rules.map((text) => {
      const parsed = parseRule(text, "allow", "session");
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    });
    expect(evaluateRules(rules, tool, callSubjects(tool, args), projectRoot)?.behavior).toBe("allow");
  });
});
