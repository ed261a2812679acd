import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SpanRecord } from "@lathe/protocol";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace } from "./latheProcess.js";
import { type ServeProcess, startServe } from "./serveProcess.js";

let llm: FakeLlm | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  await serve?.stop();
  await llm?.close();
  serve = undefined;
  llm = undefined;
});

const testKey = fakeKeys.openai;

/** A project (its real path) and a LATHE_HOME whose settings point at the scripted model. */
async function workspace(turns: FakeTurn[], files: Record<string, string | Buffer> = {}, settings = {}) {
  llm = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace(
    {},
    {
      model: "openai:gpt-4.1",
      baseUrls: { openai: `${llm.url}/v1` },
      approvalMode: "yolo",
      sandbox: { mode: "off" },
      ...settings,
    },
  );
  const root = realpathSync(ws.root);
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), contents);
  }
  serve = await startServe({ cwd: root, home: ws.home, env: { OPENAI_API_KEY: testKey } });
  return { root, home: ws.home, serve };
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: the variable syntax of MCP config files, not JavaScript's
const tokenVariable = "${env:MCP_TOKEN}";

const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

/** Sends a message and waits for its run to end, the session idle again. */
async function run(s: ServeProcess, id: string, text: string) {
  // Only what follows: a replay of an earlier run's end must not count as this one's.
  const { lastSeq } = (await s.api("GET", `/api/sessions/${id}`)).body as { lastSeq: number };
  const stream = await s.stream(id, lastSeq);
  expect((await s.api("POST", `/api/sessions/${id}/messages`, { text })).status).toBe(202);
  await stream.waitFor((m) => m.type === "run_complete");
  await stream.waitFor((m) => m.type === "state_change" && m.to === "idle");
  await stream.close();
}

const original = {
  "a.txt": Buffer.from("alpha\nkeep\n"),
  "gone.bin": Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]),
};

describe("lathe serve: stored sessions, checkpoints, traces and memories", () => {
  it("lists the session, its checkpoints and diff, restores files and conversation, and reopens it", async () => {
    const { root, serve: s } = await workspace(
      [
        {
          tool_calls: [
            { name: "read_file", arguments: { path: "a.txt" } },
            { name: "update_memory", arguments: { action: "add", content: "The tests use vitest" } },
            { name: "update_memory", arguments: { action: "add", content: "Answer briefly", scope: "user" } },
          ],
        },
        {
          tool_calls: [
            { name: "edit_file", arguments: { path: "a.txt", old_string: "alpha", new_string: "ALPHA" } },
            { name: "write_file", arguments: { path: "new.txt", contents: "created\n" } },
            { name: "run_terminal_cmd", arguments: { command: "rm gone.bin" } },
          ],
        },
        { text: "Done." },
        { text: "Second." },
        { tool_calls: [{ name: "write_file", arguments: { path: "x.txt", contents: "x" } }] },
        { text: "Not writing it." },
        { text: "Fresh start." },
      ],
      original,
    );
    const created = await s.api("POST", "/api/sessions", { projectRoot: root });
    expect(created.status).toBe(201);
    const { id, streamId } = created.body as { id: string; streamId: string };
    await run(s, id, "Change things\nin detail");
    await run(s, id, "Anything else?");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("ALPHA\nkeep\n");
    expect(existsSync(join(root, "gone.bin"))).toBe(false);

    const stored = await s.api("GET", `/api/stored-sessions${q({ projectRoot: root })}`);
    const session = {
      id,
      title: "Change things",
      projectRoot: root,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      messageCount: 8,
    };
    expect(stored).toMatchObject({ status: 200, body: [session] });
    expect(Object.keys((stored.body as object[])[0]!).sort()).toEqual(Object.keys(session).sort());
    expect((await s.api("GET", "/api/stored-sessions")).body).toEqual(stored.body);
    expect((await s.api("GET", `/api/stored-sessions${q({ projectRoot: tmpdir() })}`)).body).toEqual([]);

    const listed = await s.api("GET", `/api/sessions/${id}/checkpoints`);
    expect(listed.status).toBe(200);
    const checkpoints = listed.body as { id: string; reason: string; messageId?: string; callId?: string }[];
    // One at each user message, one before each call that is not read-only (memories included,
    // the read not).
    expect(checkpoints.map((c) => c.reason)).toEqual([
      "user_message",
      "tool_call",
      "tool_call",
      "tool_call",
      "tool_call",
      "tool_call",
      "user_message",
    ]);
    const first = checkpoints[0]!;
    expect(first).toEqual({
      id: expect.any(String),
      reason: "user_message",
      messageId: expect.any(String),
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      createdAt: expect.any(Number),
    });
    expect(checkpoints[1]).toMatchObject({ messageId: first.messageId, callId: expect.any(String) });

    const diff = await s.api("GET", `/api/sessions/${id}/checkpoints/${first.id}/diff`);
    expect(diff.status).toBe(200);
    const changes = diff.body as { files: { path: string; status: string }[]; patch: string };
    expect(changes.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added new.txt",
      "deleted gone.bin",
      "modified a.txt",
    ]);
    expect(changes.patch).toContain("-alpha\n+ALPHA\n");

    const trace = await s.api("GET", `/api/sessions/${id}/trace`);
    const spans = (trace.body as { spans: SpanRecord[] }).spans;
    expect(new Set(spans.map((span) => span.name))).toEqual(
      new Set(["run", "turn", "llm_call", "tool_call"]),
    );
    expect(spans.filter((span) => span.name === "run")).toHaveLength(2);
    expect(spans.filter((span) => span.name === "tool_call")).toHaveLength(6);
    expect(spans.every((span) => span.sessionId === id && span.status === "ok")).toBe(true);

    const unknownSession = await s.api("GET", "/api/sessions/no-such-session/checkpoints");
    expect(unknownSession).toMatchObject({ status: 404, body: { error: { code: "E_SESSION_NOT_FOUND" } } });
    const unknownCheckpoint = await s.api("GET", `/api/sessions/${id}/checkpoints/no-such-checkpoint/diff`);
    expect(unknownCheckpoint).toMatchObject({ status: 404, body: { error: { code: "E_CHECKPOINT" } } });
    // A checkpoint taken before a tool call has no place in the conversation to go back to.
    const conversationOnly = await s.api(
      "POST",
      `/api/sessions/${id}/checkpoints/${checkpoints[1]!.id}/restore`,
      {
        code: false,
      },
    );
    expect(conversationOnly).toMatchObject({ status: 400, body: { error: { code: "E_CHECKPOINT" } } });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("ALPHA\nkeep\n");

    // Busy: a run waits for an approval, so the restore is refused and nothing changes.
    expect(
      (await s.api("POST", `/api/sessions/${id}/approval-mode`, { approvalMode: "ask_first" })).status,
    ).toBe(200);
    const { lastSeq } = (await s.api("GET", `/api/sessions/${id}`)).body as { lastSeq: number };
    const watching = await s.stream(id, lastSeq);
    await s.api("POST", `/api/sessions/${id}/messages`, { text: "Write x" });
    const approval = await watching.waitFor((m) => m.type === "approval_required");
    const busy = await s.api("POST", `/api/sessions/${id}/checkpoints/${first.id}/restore`, {});
    expect(busy).toMatchObject({ status: 409, body: { error: { code: "E_SESSION_BUSY" } } });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("ALPHA\nkeep\n");
    if (approval.type !== "approval_required") throw new Error("unreachable");
    await s.api("POST", `/api/sessions/${id}/approvals/${approval.approvalId}`, { decision: "reject" });
    await watching.waitFor((m) => m.type === "run_complete");
    await watching.waitFor((m) => m.type === "state_change" && m.to === "idle");
    const messagesBefore = ((await s.api("GET", `/api/sessions/${id}`)).body as { messages: unknown[] })
      .messages;
    expect(messagesBefore).toHaveLength(12);

    const restored = await s.api("POST", `/api/sessions/${id}/checkpoints/${first.id}/restore`, {});
    expect(restored.status).toBe(200);
    const report = restored.body as {
      written: string[];
      removed: string[];
      messagesRemoved: number;
      backupSession: string;
      streamId: string;
    };
    expect({ ...report, written: [...report.written].sort() }).toEqual({
      written: ["a.txt", "gone.bin"],
      removed: ["new.txt"],
      messagesRemoved: 12,
      backupSession: expect.any(String),
      streamId: expect.any(String),
    });
    expect(report.streamId).not.toBe(streamId);
    expect(await watching.closed).toEqual({ code: 1000, reason: "session closed" });
    for (const [path, bytes] of Object.entries(original)) {
      expect(readFileSync(join(root, path)).equals(bytes), path).toBe(true);
    }
    expect(existsSync(join(root, "new.txt"))).toBe(false);

    // Open again under the same id, from the truncated conversation; the full one is the fork.
    const reopened = await s.api("GET", `/api/sessions/${id}`);
    expect(reopened.body).toMatchObject({ id, state: "idle", streamId: report.streamId, messages: [] });
    const afterRestore = (await s.api("GET", `/api/stored-sessions${q({ projectRoot: root })}`)).body;
    // The rewound session is the one the user goes on with (`lathe -c`), so it lists first; the
    // backup keeps the last activity of the conversation it saved.
    expect(afterRestore).toEqual([
      { ...session, messageCount: 0, updatedAt: expect.any(Number) },
      {
        ...session,
        id: report.backupSession,
        title: "Change things (fork)",
        messageCount: 12,
        parentId: id,
        createdAt: expect.any(Number),
      },
    ]);
    const afterCheckpoints = (await s.api("GET", `/api/sessions/${id}/checkpoints`)).body as {
      reason: string;
    }[];
    expect(afterCheckpoints.map((c) => c.reason).slice(-2)).toEqual(["user_message", "before_restore"]);

    // The next run sends the model the new message alone: the engine's history is the restored one.
    await run(s, id, "After the restore");
    const lastRequest = llm!.requests.at(-1)!.body as { messages: { role: string }[] };
    expect(lastRequest.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(JSON.stringify(lastRequest.messages[1])).toContain("After the restore");
  });

  it("lists memories the project sees and deletes one", async () => {
    const { root, serve: s } = await workspace([
      {
        tool_calls: [
          {
            name: "update_memory",
            arguments: { action: "add", content: "The tests use vitest\nand run fast" },
          },
          { name: "update_memory", arguments: { action: "add", content: "Answer briefly", scope: "user" } },
        ],
      },
      { text: "Noted." },
    ]);
    const { id } = (await s.api("POST", "/api/sessions", { projectRoot: root })).body as { id: string };
    await run(s, id, "Remember things");

    const listed = await s.api("GET", `/api/memories${q({ projectRoot: root })}`);
    const memory = (content: string, title: string, scope: string) => ({
      id: expect.any(String),
      title,
      content,
      scope,
      updatedAt: expect.any(Number),
    });
    expect(listed).toMatchObject({
      status: 200,
      body: {
        memories: [
          memory("Answer briefly", "Answer briefly", "user"),
          memory("The tests use vitest\nand run fast", "The tests use vitest", "project"),
        ],
      },
    });
    const [userMemory, projectMemory] = (listed.body as { memories: { id: string }[] }).memories;
    // Another project sees the user's memory only, and cannot delete this project's.
    const other = realpathSync(mkdtempSync(join(tmpdir(), "lathe-other-project-")));
    await s.api("POST", "/api/projects", { projectRoot: other });
    expect((await s.api("GET", `/api/memories${q({ projectRoot: other })}`)).body).toEqual({
      memories: [memory("Answer briefly", "Answer briefly", "user")].map((m) => ({
        ...m,
        id: userMemory!.id,
      })),
    });
    const foreign = await s.api("DELETE", `/api/memories/${projectMemory!.id}${q({ projectRoot: other })}`);
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "E_MEMORY_NOT_FOUND" } } });

    expect(
      await s.api("DELETE", `/api/memories/${projectMemory!.id}${q({ projectRoot: root })}`),
    ).toMatchObject({
      status: 200,
      body: { deleted: true },
    });
    const again = await s.api("DELETE", `/api/memories/${projectMemory!.id}${q({ projectRoot: root })}`);
    expect(again.status).toBe(404);
    const left = (await s.api("GET", `/api/memories${q({ projectRoot: root })}`)).body as {
      memories: { id: string }[];
    };
    expect(left.memories.map((m) => m.id)).toEqual([userMemory!.id]);
  });
});

describe("lathe serve: settings, keys and server info", () => {
  it("merges valid settings atomically, refuses invalid ones without writing, and never returns a key", async () => {
    const {
      root,
      home,
      serve: s,
    } = await workspace([], {}, { webSearch: { brave: { apiKey: "brave-secret-1" } } });
    const settingsFile = join(home, "settings.json");
    const info = await s.api("GET", "/api/info");
    expect(info.status).toBe(200);
    const infoBody = info.body as { models: string[] };
    expect(infoBody).toMatchObject({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      defaultProjectRoot: root,
      defaultModel: "openai:gpt-4.1",
      defaultMode: "agent",
      defaultApprovalMode: "yolo",
    });
    expect(infoBody.models[0]).toBe("openai:gpt-4.1");
    // Only providers with a key offer their models.
    expect(infoBody.models.every((model) => model.startsWith("openai:"))).toBe(true);

    const read = await s.api("GET", "/api/settings");
    const providers = (anthropic: string) => [
      { name: "openai", hasKey: true, source: "env" },
      { name: "anthropic", hasKey: anthropic !== "none", source: anthropic },
      { name: "google", hasKey: false, source: "none" },
      { name: "deepseek", hasKey: false, source: "none" },
      { name: "openai-compatible", hasKey: false, source: "none" },
      { name: "ollama", hasKey: false, source: "none" },
    ];
    const storedSettings = JSON.parse(readFileSync(settingsFile, "utf8"));
    expect(read).toMatchObject({
      status: 200,
      body: {
        settings: { ...storedSettings, webSearch: { brave: { apiKey: "[redacted]" } } },
        providers: providers("none"),
      },
    });
    expect(read.text).not.toContain("brave-secret-1");

    const updated = await s.api("PUT", "/api/settings", {
      settings: {
        maxIterations: 7,
        webSearch: { brave: { apiKey: "[redacted]" }, timeoutMs: 5000 },
        sandbox: null,
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.text).not.toContain("brave-secret-1");
    const { sandbox: _dropped, ...kept } = storedSettings;
    const written = {
      ...kept,
      maxIterations: 7,
      webSearch: { brave: { apiKey: "brave-secret-1" }, timeoutMs: 5000 },
    };
    expect(JSON.parse(readFileSync(settingsFile, "utf8"))).toEqual(written);
    expect((updated.body as { settings: unknown }).settings).toEqual({
      ...written,
      webSearch: { brave: { apiKey: "[redacted]" }, timeoutMs: 5000 },
    });

    const before = readFileSync(settingsFile);
    const invalid = [
      [{ maxIterations: -1 }, "maxIterations"],
      [{ approvalMode: "sometimes" }, "approvalMode"],
      [{ noSuchSetting: true }, "noSuchSetting"],
      [{ context: { window: "big" } }, "context.window"],
    ] as const;
    for (const [settings, field] of invalid) {
      const answer = await s.api("PUT", "/api/settings", { settings });
      expect(answer.status, field).toBe(400);
      expect(answer.body).toMatchObject({
        error: { code: "E_INVALID_ARGS", message: expect.stringContaining(field) },
      });
    }
    expect(readFileSync(settingsFile).equals(before)).toBe(true);

    const secret = fakeKeys.anthropicTestOnly;
    const stored = await s.api("PUT", "/api/keys/anthropic", { key: secret });
    expect(stored).toEqual({ status: 200, body: { stored: true }, text: '{"stored":true}' });
    const credentials = join(home, "credentials.json");
    expect(JSON.parse(readFileSync(credentials, "utf8"))).toEqual({ anthropic: { apiKey: secret } });
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    const withKey = await s.api("GET", "/api/settings");
    expect((withKey.body as { providers: unknown }).providers).toEqual(providers("credentials"));
    expect(withKey.text).not.toContain(secret);
    const infoAfter = await s.api("GET", "/api/info");
    expect(infoAfter.text).not.toContain(secret);
    expect(
      (infoAfter.body as { models: string[] }).models.some((model) => model.startsWith("anthropic:")),
    ).toBe(true);
    // A second key keeps the first.
    await s.api("PUT", "/api/keys/google", { key: "g-test-key" });
    expect(JSON.parse(readFileSync(credentials, "utf8"))).toEqual({
      anthropic: { apiKey: secret },
      google: { apiKey: "g-test-key" },
    });
    for (const provider of ["ollama", "nobody"]) {
      const refused = await s.api("PUT", `/api/keys/${provider}`, { key: "k" });
      expect(refused, provider).toMatchObject({ status: 400, body: { error: { code: "E_INVALID_ARGS" } } });
    }
  });
});

describe("lathe serve: project files, rules, MCP servers and the web UI", () => {
  it("lists a folder, the project's rules and MCP servers, and serves the built UI or the placeholder", async () => {
    const { root, home, serve: s } = await workspace([], {}, { rules: ["Be brief", "Use metric units"] });
    const project = realpathSync(mkdtempSync(join(tmpdir(), "lathe-rules-project-")));
    const files: Record<string, string> = {
      ".gitignore": "*.log\n",
      "AGENTS.md": "Run the tests.\n",
      "CLAUDE.md": "Same as AGENTS.md.\n",
      "app.log": "ignored\n",
      "node_modules/x/index.js": "ignored\n",
      ".lathe/rules/testing.md": "---\nglobs: src/**/*.test.ts\n---\nUse vitest.\n",
      ".lathe/rules/style.md": "---\nalwaysApply: true\n---\nTwo spaces.\n",
      ".cursor/rules/deploy.mdc": "---\ndescription: How to deploy\n---\nRun make deploy.\n",
      ".lathe/mcp.json": JSON.stringify({
        mcpServers: {
          local: { command: "node", args: ["server.js", "--token", tokenVariable, "two words"] },
          shared: { url: "http://127.0.0.1:9/mcp", headers: { authorization: `Bearer ${tokenVariable}` } },
        },
      }),
      ".cursor/mcp.json": JSON.stringify({
        mcpServers: { shared: { command: "cursor-only" }, cursor: { url: "http://127.0.0.1:9/other" } },
      }),
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(project, path)), { recursive: true });
      writeFileSync(join(project, path), text);
    }
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { mine: { command: "my-server" } } }));
    await s.api("POST", "/api/projects", { projectRoot: project });

    expect(await s.api("GET", `/api/files${q({ projectRoot: project })}`)).toMatchObject({
      status: 200,
      body: {
        dir: "",
        entries: [
          { name: ".cursor", path: ".cursor", kind: "dir" },
          { name: ".lathe", path: ".lathe", kind: "dir" },
          { name: ".gitignore", path: ".gitignore", kind: "file" },
          { name: "AGENTS.md", path: "AGENTS.md", kind: "file" },
          { name: "CLAUDE.md", path: "CLAUDE.md", kind: "file" },
        ],
      },
    });
    const outside = await s.api("GET", `/api/files${q({ projectRoot: project, dir: "../" })}`);
    expect(outside).toMatchObject({ status: 400, body: { error: { code: "E_PATH_TRAVERSAL" } } });

    expect((await s.api("GET", `/api/rules${q({ projectRoot: project })}`)).body).toEqual({
      rules: [
        { name: "AGENTS.md", path: "AGENTS.md", activation: "always" },
        { name: "CLAUDE.md", path: "CLAUDE.md", activation: "always" },
        { name: "style", path: ".lathe/rules/style.md", activation: "always" },
        { name: "testing", path: ".lathe/rules/testing.md", activation: "auto" },
        {
          name: "deploy",
          path: ".cursor/rules/deploy.mdc",
          activation: "requested",
          description: "How to deploy",
        },
        {
          name: "user rules",
          path: join(home, "settings.json"),
          activation: "always",
          description: "2 rules from your settings",
        },
      ],
    });

    const mcp = await s.api("GET", `/api/mcp${q({ projectRoot: project })}`);
    expect(mcp.body).toEqual({
      servers: [
        // Only the user's own file is Settings' to change.
        {
          name: "mine",
          transport: "stdio",
          target: "my-server",
          source: join(home, "mcp.json"),
          removable: true,
        },
        {
          name: "shared",
          transport: "http",
          target: "http://127.0.0.1:9/mcp",
          source: join(project, ".lathe", "mcp.json"),
          removable: false,
        },
        {
          name: "cursor",
          transport: "http",
          target: "http://127.0.0.1:9/other",
          source: join(project, ".cursor", "mcp.json"),
          removable: false,
        },
        {
          name: "local",
          transport: "stdio",
          target: `node server.js --token '${tokenVariable}' 'two words'`,
          source: join(project, ".lathe", "mcp.json"),
          removable: false,
        },
      ],
    });

    // The root of the server's own project works the same way.
    expect((await s.api("GET", `/api/rules${q({ projectRoot: root })}`)).body).toEqual({
      rules: [
        {
          name: "user rules",
          path: join(home, "settings.json"),
          activation: "always",
          description: "2 rules from your settings",
        },
      ],
    });

    // `/` is the web UI when it has been built, else the placeholder page.
    const page = await fetch(`${s.origin}/`, { headers: { authorization: `Bearer ${s.token}` } });
    const html = await page.text();
    const built = fileURLToPath(new URL("../../web/dist", import.meta.url));
    if (existsSync(join(built, "index.html")))
      expect(html).toBe(readFileSync(join(built, "index.html"), "utf8"));
    else expect(html).toContain("no web UI was built");
  });
});

describe("the projects lathe serve reads", () => {
  it("serves the --cwd project and projects with stored sessions, and refuses any other folder", async () => {
    const { root, home } = await workspace([{ text: "Hello." }], { "a.txt": "a\n" });
    const other = realpathSync(mkdtempSync(join(tmpdir(), "lathe-other-project-")));
    writeFileSync(join(other, "b.txt"), "b\n");
    const { id } = (await serve!.api("POST", "/api/sessions", { projectRoot: other })).body as { id: string };
    await run(serve!, id, "Hi");
    await serve!.stop();

    // A new server forgets what was opened; the store remembers the session's project.
    serve = await startServe({ cwd: root, home, env: { OPENAI_API_KEY: testKey } });
    const files = (projectRoot: string) => serve!.api("GET", `/api/files${q({ projectRoot })}`);
    expect((await files(root)).body).toEqual({
      dir: "",
      entries: [{ name: "a.txt", path: "a.txt", kind: "file" }],
    });
    expect((await files(other)).body).toEqual({
      dir: "",
      entries: [{ name: "b.txt", path: "b.txt", kind: "file" }],
    });
    for (const refused of ["/etc", realpathSync(tmpdir())]) {
      expect(await files(refused)).toMatchObject({
        status: 403,
        body: { error: { code: "E_PROJECT_NOT_OPEN" } },
      });
      expect(await serve!.api("GET", `/api/rules${q({ projectRoot: refused })}`)).toMatchObject({
        status: 403,
      });
    }
  });
});
