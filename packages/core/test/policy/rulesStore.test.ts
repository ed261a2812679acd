import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadRuleLayers } from "../../src/policy/rules/ruleLayers.js";
import { removeRule, saveRule } from "../../src/policy/rules/ruleStore.js";

let latheHome: string;
let projectRoot: string;
let base: string;
const userFile = () => path.join(latheHome, "settings.json");
const projectFile = () => path.join(projectRoot, ".lathe", "settings.json");
const localFile = () => path.join(projectRoot, ".lathe", "settings.local.json");

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-rule-store-")));
  latheHome = path.join(base, "home");
  projectRoot = path.join(base, "project");
  mkdirSync(latheHome);
  mkdirSync(projectRoot);
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(file: string, json: unknown) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof json === "string" ? json : JSON.stringify(json));
}

describe("loadRuleLayers", () => {
  it("returns every rule with its source and file, layer by layer", () => {
    write(userFile(), { model: "openai:x", permissions: { deny: ["run_terminal_cmd(rm *)"] } });
    write(projectFile(), { permissions: { allow: ["edit_file(src/**)"], ask: ["web_fetch"] } });
    write(localFile(), { permissions: { allow: ["run_terminal_cmd(npm test *)"] } });
    const layers = loadRuleLayers({
      latheHome,
      projectRoot,
      cli: { allow: ["read_file"], deny: ["mcp__github__*"] },
    });
    expect(layers.errors).toEqual([]);
    expect(layers.rules.map((rule) => [rule.behavior, rule.text, rule.source, rule.file])).toEqual([
      ["deny", "run_terminal_cmd(rm *)", "user", userFile()],
      ["allow", "edit_file(src/**)", "project", projectFile()],
      ["ask", "web_fetch", "project", projectFile()],
      ["allow", "run_terminal_cmd(npm test *)", "project-local", localFile()],
      ["allow", "read_file", "cli", undefined],
      ["deny", "mcp__github__*", "cli", undefined],
    ]);
  });

  it("reports invalid rules and files, naming the file, and keeps the valid rules", () => {
    write(userFile(), "{ not json");
    write(projectFile(), {
      permissions: { allow: ["edit_file(src/**)", "run_terminal_cmd(npm test*)", 42] },
    });
    write(localFile(), { permissions: { deny: "rm" } });
    const layers = loadRuleLayers({ latheHome, projectRoot, cli: { deny: ["bad("] } });
    expect(layers.rules.map((rule) => rule.text)).toEqual(["edit_file(src/**)"]);
    const messages = layers.errors.map((error) => error.message);
    expect(messages).toHaveLength(5);
    expect(messages[0]).toContain(`${userFile()} is not valid JSON`);
    expect(messages[1]).toContain(
      `${projectFile()}: permissions.allow[1]: "run_terminal_cmd(npm test*)": "*" must stand alone`,
    );
    expect(messages[2]).toBe(`${projectFile()}: permissions.allow[2] is not a string`);
    expect(messages[3]).toBe(`${localFile()}: "permissions.deny" must be a list of rule strings`);
    expect(messages[4]).toContain("--deny: ");
    expect(layers.errors[1]).toMatchObject({
      source: "project",
      file: projectFile(),
      rule: "run_terminal_cmd(npm test*)",
    });
  });

  it("treats missing files as empty layers", () => {
    expect(loadRuleLayers({ latheHome, projectRoot })).toEqual({ rules: [], errors: [] });
  });
});

describe("saveRule", () => {
  it("creates the project-local file with exactly the rule, and git-ignores it", async () => {
    const saved = await saveRule("run_terminal_cmd(npm test *)", "project-local", { latheHome, projectRoot });
    expect(saved).toMatchObject({
      ok: true,
      added: true,
      rule: { source: "project-local", file: localFile() },
    });
    expect(readFileSync(localFile(), "utf8")).toBe(
      '{\n  "permissions": {\n    "allow": [\n      "run_terminal_cmd(npm test *)"\n    ]\n  }\n}\n',
    );
    expect(readFileSync(path.join(projectRoot, ".lathe", ".gitignore"), "utf8")).toBe(
      "settings.local.json\n",
    );
  });

  it("keeps other keys and lists, adds no duplicate in any spelling, and keeps the file's mode", async () => {
    write(userFile(), {
      model: "anthropic:m",
      permissions: { deny: ["web_fetch"], allow: ["read_file"] },
      z: 1,
    });
    const { chmodSync } = await import("node:fs");
    chmodSync(userFile(), 0o600);
    await saveRule("edit_file(src/**)", "user", { latheHome, projectRoot });
    const again = await saveRule("  edit_file( src/** )", "user", { latheHome, projectRoot });
    expect(again).toMatchObject({ ok: true, added: false });
    expect(readFileSync(userFile(), "utf8")).toBe(
      `${JSON.stringify(
        {
          model: "anthropic:m",
          permissions: { deny: ["web_fetch"], allow: ["read_file", "edit_file(src/**)"] },
          z: 1,
        },
        null,
        2,
      )}\n`,
    );
    expect(statSync(userFile()).mode & 0o777).toBe(0o600);
  });

  it("saves several rules at once without losing any", async () => {
    const texts = Array.from({ length: 8 }, (_, index) => `run_terminal_cmd(tool${index} *)`);
    await Promise.all(texts.map((text) => saveRule(text, "user", { latheHome, projectRoot })));
    const saved = JSON.parse(readFileSync(userFile(), "utf8")).permissions.allow;
    expect([...saved].sort()).toEqual([...texts].sort());
  });

  it("writes into the chosen list", async () => {
    await saveRule("run_terminal_cmd(git push *)", "project-local", {
      latheHome,
      projectRoot,
      behavior: "ask",
    });
    expect(JSON.parse(readFileSync(localFile(), "utf8"))).toEqual({
      permissions: { ask: ["run_terminal_cmd(git push *)"] },
    });
  });

  it("keeps session rules in memory only", async () => {
    const saved = await saveRule("read_file(src/**)", "session", { latheHome, projectRoot });
    expect(saved).toEqual({
      ok: true,
      added: true,
      rule: {
        behavior: "allow",
        tool: "read_file",
        specifier: "src/**",
        source: "session",
        text: "read_file(src/**)",
      },
    });
    expect(() => statSync(localFile())).toThrow();
    expect(() => statSync(userFile())).toThrow();
  });

  it("refuses invalid rules and leaves a file that is not JSON untouched", async () => {
    expect(await saveRule("run_terminal_cmd(", "user", { latheHome, projectRoot })).toMatchObject({
      ok: false,
    });
    write(userFile(), "{ broken");
    const saved = await saveRule("read_file", "user", { latheHome, projectRoot });
    expect(saved).toMatchObject({ ok: false });
    if (!saved.ok) expect(saved.message).toContain("is not valid JSON");
    expect(readFileSync(userFile(), "utf8")).toBe("{ broken");
  });
});

describe("removeRule", () => {
  it("removes a rule in any spelling from every list of the file, keeping the rest", async () => {
    write(projectFile(), {
      other: true,
      permissions: { allow: ["edit_file(src/**)", "read_file"], deny: ["edit_file( src/** )"] },
    });
    const removed = await removeRule("edit_file(src/**)", "project", { latheHome, projectRoot });
    expect(removed).toEqual({
      ok: true,
      file: projectFile(),
      removed: [
        { behavior: "allow", rule: "edit_file(src/**)" },
        { behavior: "deny", rule: "edit_file( src/** )" },
      ],
    });
    expect(readFileSync(projectFile(), "utf8")).toBe(
      `${JSON.stringify({ other: true, permissions: { allow: ["read_file"], deny: [] } }, null, 2)}\n`,
    );
  });

  it("says what the file holds when the rule is not there", async () => {
    write(userFile(), { permissions: { allow: ["read_file"] } });
    const removed = await removeRule("write_file", "user", { latheHome, projectRoot });
    expect(removed.ok).toBe(false);
    if (!removed.ok)
      expect(removed.message).toBe(`write_file is not in ${userFile()}; it holds:\n  allow: read_file`);
    const missing = await removeRule("write_file", "project-local", { latheHome, projectRoot });
    expect(missing.ok || missing.message).toContain("does not exist");
  });
});
