import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  AgentSession,
  type ApprovalMode,
  createModelClient,
  knownSecrets,
  loadRuleLayers,
} from "@lathe/core";
import type { LatheEvent } from "@lathe/protocol";
import { fakeKeys, startFakeLlm } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import { sessionTools } from "../src/sessionTools.js";
import { sessionDefaultSandbox } from "../src/toolCallSetup.js";
import { runLathe } from "./latheProcess.js";

/**
 * One table of calls, judged twice: by a real session (a scripted model makes the call, zero
 * approvals given) and by the real `lathe policy check`. Both must give the table's answer.
 */
interface Row {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  approvalMode: ApprovalMode;
  allow?: string[];
  deny?: string[];
  /** A command that must never run: judged in manual mode, where anything not blocked only asks. */
  destructive?: boolean;
  expect: { decision: "allow" | "ask" | "deny"; risk: string; code?: string; rule?: string };
}

const corpusFile = fileURLToPath(new URL("../../core/test/policy/corpora/decisions.json", import.meta.url));
const stdioServer = fileURLToPath(new URL("../../core/test/mcp/stdioTestServer.mjs", import.meta.url));
const providerKey = fakeKeys.openai;

/** The key as the corpus places it: as written, and with its first letter percent-encoded. */
function withKeys(value: unknown): unknown {
  const text = JSON.stringify(value)
    .replaceAll("{providerKeyEncoded}", `%${providerKey.charCodeAt(0).toString(16)}${providerKey.slice(1)}`)
    .replaceAll("{providerKey}", providerKey);
  return JSON.parse(text);
}

const rows = (JSON.parse(readFileSync(corpusFile, "utf8")) as Row[]).map((row) => ({
  ...row,
  args: withKeys(row.args) as Record<string, unknown>,
}));

const env = { OPENAI_API_KEY: providerKey };
/** Image generation configured, so that generate_image is offered and its calls are judged. */
const toolSettings = { imageGeneration: { provider: "openai" as const } };

/** A project with a few files, and a LATHE_HOME whose user-level MCP config names the demo server. */
function workspace() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-project-")));
  const home = realpathSync(mkdtempSync(join(tmpdir(), "lathe-home-")));
  const files: Record<string, string> = {
    "notes.txt": "notes\n",
    ".env": "TOKEN=not-a-secret\n",
    ".lathe/settings.json": "{}",
  };
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), contents);
  }
  const mcp = { mcpServers: { demo: { command: process.execPath, args: [stdioServer] } } };
  writeFileSync(join(home, "mcp.json"), JSON.stringify(mcp));
  writeFileSync(
    join(home, "settings.json"),
    JSON.stringify({ checkpoints: { enabled: false }, ...toolSettings }),
  );
  return { root, home };
}

/** The session's verdict, read from the events of the one call the scripted model made. */
async function sessionVerdict(row: Row) {
  const ws = workspace();
  const server = await startFakeLlm({
    script: { turns: [{ tool_calls: [{ name: row.tool, arguments: row.args }] }, { text: "Done." }] },
  });
  const client = createModelClient({
    modelId: "openai:gpt-4.1",
    baseUrl: `${server.url}/v1`,
    env,
    latheHome: ws.home,
  });
  if (!client.ok) throw new Error(client.error.message);
  // As engineSetup builds a session: the same tools, rules, keys and sandbox.
  const tools = await sessionTools({
    projectRoot: ws.root,
    latheHome: ws.home,
    projectTrusted: false,
    settings: toolSettings,
    env,
  });
  const layers = loadRuleLayers({
    latheHome: ws.home,
    projectRoot: ws.root,
    cli: { allow: row.allow ?? [], deny: row.deny ?? [] },
    projectTrusted: false,
  });
  const session = new AgentSession({
    projectRoot: ws.root,
    latheHome: ws.home,
    model: client.client,
    tools: tools.registry,
    approvalMode: row.approvalMode,
    rules: layers.rules,
    sandbox: sessionDefaultSandbox,
    secrets: knownSecrets({ env, latheHome: ws.home }),
    maxIterations: 2,
  });
  const events: LatheEvent[] = [];
  session.subscribe((event) => events.push(event));
  try {
    await session.send("Make the call.");
  } finally {
    await session.dispose();
    await tools.close();
    await server.close();
  }
  const types = new Set(events.map((event) => event.type));
  const blocked = events.find((event) => event.type === "tool_blocked");
  const asked = events.find((event) => event.type === "approval_required");
  return {
    executed: types.has("tool_executing"),
    blockedCode: blocked?.type === "tool_blocked" ? blocked.error.code : undefined,
    askedRisk: asked?.type === "approval_required" ? asked.risk : undefined,
    rejected: types.has("tool_rejected"),
  };
}

async function policyCheck(row: Row) {
  const ws = workspace();
  const rules = [
    ...(row.allow ?? []).flatMap((r) => ["--allow", r]),
    ...(row.deny ?? []).flatMap((r) => ["--deny", r]),
  ];
  const run = await runLathe(
    [
      "policy",
      "check",
      "--tool",
      row.tool,
      "--args",
      JSON.stringify(row.args),
      "--approval-mode",
      row.approvalMode,
      ...rules,
      "--cwd",
      ws.root,
    ],
    { home: ws.home, env },
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, string>;
}

describe("one decision for a session and for lathe policy check", () => {
  it("keeps destructive commands in manual mode, where nothing unblocked runs unasked", () => {
    for (const row of rows.filter((candidate) => candidate.destructive)) {
      expect(row.approvalMode).toBe("manual");
      expect(row.expect.decision).not.toBe("allow");
    }
  });

  it.each(rows)("$name: lathe policy check", async (row) => {
    const line = await policyCheck(row);
    expect({ decision: line.decision, risk: line.risk, code: line.code, rule: line.rule }).toEqual({
      decision: row.expect.decision,
      risk: row.expect.risk,
      code: row.expect.code,
      rule: row.expect.rule,
    });
  });

  it.each(rows)("$name: a session", async (row) => {
    const verdict = await sessionVerdict(row);
    if (row.expect.decision === "deny") {
      expect(verdict).toEqual({
        executed: false,
        blockedCode: row.expect.code,
        askedRisk: undefined,
        rejected: false,
      });
    } else if (row.expect.decision === "ask") {
      expect(verdict).toEqual({
        executed: false,
        blockedCode: undefined,
        askedRisk: row.expect.risk,
        rejected: true,
      });
    } else {
      expect(verdict).toEqual({
        executed: true,
        blockedCode: undefined,
        askedRisk: undefined,
        rejected: false,
      });
    }
  });
});
