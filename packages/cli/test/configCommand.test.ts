import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkspace, runLathe } from "./latheProcess.js";

async function config(ws: { root: string; home: string }, args: string[], env: Record<string, string> = {}) {
  return runLathe(["config", ...args, "--cwd", ws.root], { home: ws.home, env });
}

const read = (file: string) => readFileSync(file, "utf8");

describe("lathe config show and get", () => {
  it("shows each setting in effect with its layer, secrets redacted, untrusted allow rules marked", async () => {
    const ws = await makeWorkspace(
      {},
      {
        maxIterations: 40,
        webSearch: { brave: { apiKey: "brave-secret" } },
        permissions: { deny: ["delete_file"] },
      },
    );
    mkdirSync(join(ws.root, ".lathe"));
    writeFileSync(
      join(ws.root, ".lathe", "settings.json"),
      JSON.stringify({ permissions: { allow: ["read_file"] } }),
    );
    const run = await config(ws, ["--json"], { LATHE_MODEL: "openai:gpt-4o" });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("brave-secret");
    const { entries, files } = JSON.parse(run.stdout);
    const user = join(ws.home, "settings.json");
    const project = join(ws.root, ".lathe", "settings.json");
    expect(files).toEqual({ user, project, "project-local": join(ws.root, ".lathe", "settings.local.json") });
    expect(entries).toEqual([
      { key: "approvalMode", value: "ask_first", source: "default" },
      { key: "approvalTimeoutSeconds", value: 300, source: "default" },
      { key: "checkpoints.enabled", value: true, source: "default" },
      { key: "context.codeIndex", value: true, source: "default" },
      { key: "maxIterations", value: 40, source: "user", file: user },
      { key: "mode", value: "agent", source: "default" },
      { key: "model", value: "openai:gpt-4o", source: "env", variable: "LATHE_MODEL" },
      {
        key: "permissions.allow",
        value: "read_file",
        source: "project",
        file: project,
        ignored: "the folder is not trusted (lathe trust)",
      },
      { key: "permissions.deny", value: "delete_file", source: "user", file: user },
      { key: "sandbox.mode", value: "auto", source: "default" },
      { key: "sandbox.network", value: false, source: "default" },
      { key: "webSearch.brave.apiKey", value: "[redacted]", source: "user", file: user },
    ]);
    const text = await config(ws, []);
    expect(text.stdout.split("\n")).toContain(`maxIterations           40             user (${user})`);
  });

  it("gets one value: a leaf as text, an object as JSON, with --json its source", async () => {
    const ws = await makeWorkspace({}, { model: "openai:gpt-4.1", sandbox: { network: true } });
    expect((await config(ws, ["get", "model"])).stdout).toBe("openai:gpt-4.1\n");
    // A sandbox object without a mode takes the schema's own default for it.
    expect((await config(ws, ["get", "sandbox"])).stdout).toBe('{"mode":"off","network":true}\n');
    const json = await config(ws, ["get", "maxIterations", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ key: "maxIterations", value: 25, source: "default" });
    const missing = await config(ws, ["get", "fastModel"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("lathe config: fastModel is not set\n");
    const fromFile = await config(ws, ["get", "model", "--scope", "project"]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toContain(`model is not set in ${join(ws.root, ".lathe", "settings.json")}`);
  });
});

describe("lathe config set and unset", () => {
  it("writes JSON values and strings into the user's file, keeping what else it holds", async () => {
    const ws = await makeWorkspace({}, { rules: ["be brief"] });
    const file = join(ws.home, "settings.json");
    const set = await config(ws, ["set", "context.window", "64000"]);
    expect(set.code).toBe(0);
    expect(set.stdout).toBe(`Set context.window = 64000 in ${file}\n`);
    expect((await config(ws, ["set", "model", "ollama:qwen3"])).code).toBe(0);
    const secret = await config(ws, ["set", "webSearch.brave.apiKey", "brave-secret", "--json"]);
    expect(JSON.parse(secret.stdout)).toEqual({
      key: "webSearch.brave.apiKey",
      value: "[redacted]",
      scope: "user",
      file,
    });
    expect(JSON.parse(read(file))).toEqual({
      rules: ["be brief"],
      context: { window: 64000 },
      model: "ollama:qwen3",
      webSearch: { brave: { apiKey: "brave-secret" } },
    });
    const unset = await config(ws, ["unset", "model"]);
    expect(unset.stdout).toBe(`Removed model from ${file}\n`);
    expect(JSON.parse(read(file)).model).toBeUndefined();
    const again = await config(ws, ["unset", "model"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`lathe config: E_INVALID_ARGS: model is not set in ${file}\n`);
  });

  it.each([
    {
      args: ["set", "maxIterations", "many"],
      message:
        "E_INVALID_ARGS: invalid value for maxIterations: maxIterations: Invalid input: expected number, received string",
    },
    {
      args: ["set", "approvalMode", "sometimes"],
      message: "E_INVALID_ARGS: invalid value for approvalMode: approvalMode:",
    },
    {
      args: ["set", "permissions.allow", '["run_terminal_cmd(npm test*)"]'],
      message:
        'invalid value for permissions.allow: permissions.allow[0]: "run_terminal_cmd(npm test*)": "*" must stand alone',
    },
    { args: ["set", "noSuchSetting", "1"], message: 'E_INVALID_ARGS: unknown setting "noSuchSetting"' },
    { args: ["set", "context..window", "1"], message: 'E_INVALID_ARGS: unknown setting "context..window"' },
    { args: ["set", "model", "x", "--scope", "team"], message: 'E_INVALID_ARGS: unknown scope "team"' },
    {
      args: ["set", "model", "x", "--scope", "project"],
      message: "model is read from $LATHE_HOME/settings.json only",
    },
    { args: ["set", "model"], message: "set needs KEY VALUE" },
    { args: ["unset"], message: "unset needs KEY" },
    { args: ["frobnicate"], message: 'unknown command "frobnicate"' },
  ])("refuses $args with exit 2 and writes nothing", async ({ args, message }) => {
    const ws = await makeWorkspace({}, { maxIterations: 10 });
    const before = read(join(ws.home, "settings.json"));
    const run = await config(ws, args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(read(join(ws.home, "settings.json"))).toBe(before);
    expect(existsSync(join(ws.root, ".lathe"))).toBe(false);
  });

  it("writes project rules, keeps settings.local.json out of git, and keeps the folder's trust", async () => {
    const ws = await makeWorkspace();
    // No gated file yet, so no trust is needed; the write must not leave the folder untrusted.
    const local = await config(ws, [
      "set",
      "permissions.allow",
      '["run_terminal_cmd(npm test *)"]',
      "--scope",
      "project-local",
    ]);
    expect(local.code).toBe(0);
    expect(JSON.parse(read(join(ws.root, ".lathe", "settings.local.json")))).toEqual({
      permissions: { allow: ["run_terminal_cmd(npm test *)"] },
    });
    expect(read(join(ws.root, ".lathe", ".gitignore"))).toBe("settings.local.json\n");
    // The user's own write keeps the allow rule in effect: a session would apply it.
    const check = await runLathe(
      [
        "policy",
        "check",
        "--tool",
        "run_terminal_cmd",
        "--args",
        '{"command":"npm test -- x"}',
        "--approval-mode",
        "manual",
        "--cwd",
        ws.root,
      ],
      { home: ws.home },
    );
    expect(JSON.parse(check.stdout)).toMatchObject({
      decision: "allow",
      rule: "run_terminal_cmd(npm test *)",
    });
  });

  it("does not make an untrusted project's other allow rules trusted by writing one", async () => {
    const ws = await makeWorkspace({
      ".lathe/settings.json": JSON.stringify({ permissions: { allow: ["delete_file"] } }),
    });
    const set = await config(ws, [
      "set",
      "permissions.deny",
      '["run_terminal_cmd(rm *)"]',
      "--scope",
      "project",
    ]);
    expect(set.code).toBe(0);
    expect(JSON.parse(read(join(ws.root, ".lathe", "settings.json")))).toEqual({
      permissions: { allow: ["delete_file"], deny: ["run_terminal_cmd(rm *)"] },
    });
    const shown = JSON.parse((await config(ws, ["--json"])).stdout).entries;
    expect(shown).toContainEqual(
      expect.objectContaining({
        key: "permissions.allow",
        value: "delete_file",
        ignored: "the folder is not trusted (lathe trust)",
      }),
    );
  });
});
