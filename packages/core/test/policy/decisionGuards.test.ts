import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtinTools, createWebFetchTool, decidePolicy, type PolicyInput, ToolRegistry } from "@lathe/core";
import { fakeKeys } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import { urlCarriesSecret } from "../../src/policy/secretInUrl.js";
import { urlBlock } from "../../src/policy/urlPrecheck.js";

function project() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-project-")));
  const home = realpathSync(mkdtempSync(join(tmpdir(), "lathe-home-")));
  return { root, home };
}

const registry = new ToolRegistry([...builtinTools(), createWebFetchTool(() => ({}))]);

async function decide(
  name: string,
  args: unknown,
  extra: Partial<PolicyInput> & { root: string; home: string },
) {
  const tool = registry.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  const { root, home, ...rest } = extra;
  return decidePolicy({
    tool,
    args,
    projectRoot: root,
    latheHome: home,
    approvalMode: "yolo",
    rules: [],
    ...rest,
  });
}

describe("the path guard inside the decision", () => {
  it("refuses what the tool's guard refuses, with its code", async () => {
    const ws = project();
    const outside = mkdtempSync(join(tmpdir(), "lathe-outside-"));
    symlinkSync(outside, join(ws.root, "link"));
    for (const path of ["/etc/passwd", "../x", "link/secret.txt", `${ws.root}-evil/x`]) {
      expect(await decide("read_file", { path }, ws)).toMatchObject({
        decision: "deny",
        code: "E_PATH_TRAVERSAL",
      });
    }
    expect(await decide("write_file", { path: "a\0b", contents: "" }, ws)).toMatchObject({
      decision: "deny",
      code: "E_SECURITY_BLOCKED",
    });
  });

  it("lets read_file reach spilled tool output and nothing else of LATHE_HOME", async () => {
    const ws = project();
    mkdirSync(join(ws.home, "tool-output"));
    writeFileSync(join(ws.home, "tool-output", "call.txt"), "spilled");
    const spilled = join(ws.home, "tool-output", "call.txt");
    expect(await decide("read_file", { path: spilled }, ws)).toMatchObject({ decision: "allow" });
    expect(await decide("write_file", { path: spilled, contents: "x" }, ws)).toMatchObject({
      code: "E_PATH_TRAVERSAL",
    });
    expect(await decide("read_file", { path: join(ws.home, "settings.json") }, ws)).toMatchObject({
      code: "E_PATH_TRAVERSAL",
    });
  });
});

describe("known keys in a URL", () => {
  const key = fakeKeys.openaiSecret;

  it("finds a key as written, percent-encoded, in any case, and not a short placeholder", () => {
    expect(urlCarriesSecret(`https://a.example/?k=${key}`, [key])).toBe(true);
    expect(
      urlCarriesSecret(`https://a.example/?k=%${key.charCodeAt(0).toString(16)}${key.slice(1)}`, [key]),
    ).toBe(true);
    expect(urlCarriesSecret(`https://${key.toUpperCase()}.example/`, [key])).toBe(true);
    expect(urlCarriesSecret("https://a.example/?k=x%zz", [key])).toBe(false);
    expect(urlCarriesSecret("https://a.example/x", ["x"])).toBe(false);
  });

  it("blocks web_fetch of such a URL in every mode, and lets it through without the key", async () => {
    const ws = project();
    const url = `https://example.com/?key=${key}`;
    const blocked = await decide("web_fetch", { url }, { ...ws, secrets: [key] });
    expect(blocked).toMatchObject({ decision: "deny", code: "E_SECURITY_BLOCKED" });
    expect(blocked.reason).not.toContain(key);
    const other = await decide(
      "web_fetch",
      { url: "https://docs.invalid/?key=public" },
      { ...ws, secrets: [key] },
    );
    expect(other).toMatchObject({ decision: "allow", risk: "low" });
  });
});

describe("the network guard's pre-check", () => {
  it("blocks addresses in their literal forms and names resolving to them, without connecting", async () => {
    const resolveTo = (address: string) => async () => [{ address, family: 4 }];
    expect(await urlBlock("http://2130706433/", {})).toMatchObject({ code: "E_NETWORK_BLOCKED" });
    expect(await urlBlock("http://[::1]/", {})).toMatchObject({ code: "E_NETWORK_BLOCKED" });
    expect(await urlBlock("gopher://example.com/", {})).toMatchObject({ code: "E_NETWORK_BLOCKED" });
    expect(await urlBlock("https://inside.example/", {}, resolveTo("10.1.2.3"))).toMatchObject({
      code: "E_NETWORK_BLOCKED",
    });
    expect(await urlBlock("https://public.example/", {}, resolveTo("93.184.215.14"))).toBeUndefined();
    expect(await urlBlock("http://127.0.0.1:8080/", { allowLoopback: true })).toBeUndefined();
  });

  it("leaves a name that does not resolve to the fetch itself", async () => {
    const fails = async () => {
      throw new Error("ENOTFOUND");
    };
    expect(await urlBlock("https://docs.invalid/", {}, fails)).toBeUndefined();
  });
});

describe("the sandbox's network question", () => {
  it("asks before a command that needs the network when the sandbox cuts it off", async () => {
    const ws = project();
    const install = { command: "npm install left-pad" };
    const sandboxed = await decide("run_terminal_cmd", install, {
      ...ws,
      sandbox: { networkAlwaysOn: false },
    });
    expect(sandboxed).toMatchObject({ decision: "ask", needsNetwork: true });
    const open = await decide("run_terminal_cmd", install, { ...ws, sandbox: { networkAlwaysOn: true } });
    expect(open).toMatchObject({ decision: "allow", needsNetwork: true });
  });
});

describe("commands reading Lathe's own files", () => {
  it("judges a command on $LATHE_HOME critical wherever it lives, like read_file there", async () => {
    const ws = project();
    for (const command of [
      `cat ${join(ws.home, "credentials.json")}`,
      `cp ${join(ws.home, "settings.json")} x`,
    ]) {
      expect(await decide("run_terminal_cmd", { command }, { ...ws, approvalMode: "auto" })).toMatchObject({
        decision: "ask",
        risk: "critical",
      });
    }
    expect(
      await decide("run_terminal_cmd", { command: "cat notes.txt" }, { ...ws, approvalMode: "auto" }),
    ).toMatchObject({ decision: "allow", risk: "safe" });
  });
});
