import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  answerText,
  closeAgents,
  initializeParams,
  inProcessAgent,
  openSession,
  promptOnce,
  recordingClient,
} from "./acpHarness.js";
import { makeWorkspace } from "./latheProcess.js";

const lathe = fileURLToPath(new URL("../bin/lathe", import.meta.url));

let server: FakeLlm | undefined;
afterEach(async () => {
  await closeAgents();
  await server?.close();
  server = undefined;
});

describe("lathe acp, against the SDK's own client in this process", () => {
  it("initializes, opens a session with Lathe's modes and streams a prompt's answer", async () => {
    const { agent, ws } = await inProcessAgent([{ text: "Hello from Lathe." }]);
    const { client, updates } = recordingClient();
    await client.connectWith(agent, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, initializeParams);
      expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
      expect(init.agentInfo).toMatchObject({ name: "lathe" });
      const created = await ctx.request(acp.methods.agent.session.new, { cwd: ws.root, mcpServers: [] });
      expect(created.modes?.currentModeId).toBe("agent");
      expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual(["agent", "ask", "plan", "debug"]);
      const done = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: "text", text: "Say hello" }],
      });
      expect(done.stopReason).toBe("end_turn");
    });
    expect(answerText(updates)).toBe("Hello from Lathe.");
  });

  it("asks the editor about a call the policy asks about, and runs it once allowed", async () => {
    const { agent, ws } = await inProcessAgent(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "hi\n" } }] },
        { text: "Written." },
      ],
      { flags: ["--approval-mode", "manual"] },
    );
    const { client, updates, asked } = recordingClient("allow_once");
    await client.connectWith(agent, (ctx) => promptOnce(ctx, ws.root, "Write it"));
    expect(
      asked.map((request) => [request.toolCall.title, request.options.map((option) => option.kind)]),
    ).toEqual([["write_file notes.md", ["allow_once", "allow_always", "reject_once", "reject_always"]]]);
    // The question carries the change: a new file, so no old text.
    expect(asked[0]?.toolCall.content).toEqual([
      { type: "diff", path: join(ws.root, "notes.md"), oldText: null, newText: "hi\n" },
    ]);
    expect(readFileSync(join(ws.root, "notes.md"), "utf8")).toBe("hi\n");
    // The write as a diff the editor can show: no old text (the file was new), the new text.
    expect(updates.filter((update) => update.sessionUpdate === "tool_call_update").at(-1)).toMatchObject({
      status: "completed",
      content: [
        { type: "diff", path: join(ws.root, "notes.md"), oldText: null, newText: "hi\n" },
        { type: "content", content: { type: "text" } },
      ],
    });
  });

  it("lists the stored sessions of a folder, the one just used among them", async () => {
    const { agent, ws } = await inProcessAgent([{ text: "Stored." }]);
    const { client } = recordingClient();
    await client.connectWith(agent, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, initializeParams);
      expect(init.agentCapabilities?.sessionCapabilities?.list).toEqual({});
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: ws.root,
        mcpServers: [],
      });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Keep this" }],
      });
      const listed = await ctx.request(acp.methods.agent.session.list, { cwd: ws.root });
      expect(listed.sessions.map((session) => [session.sessionId, session.cwd])).toEqual([
        [sessionId, ws.root],
      ]);
      const elsewhere = await ctx.request(acp.methods.agent.session.list, { cwd: ws.home });
      expect(elsewhere.sessions).toEqual([]);
    });
  });

  it("switches the model through its config option, from the next request on", async () => {
    const { agent, ws, fake } = await inProcessAgent([{ text: "One." }, { text: "Two." }]);
    const { client } = recordingClient();
    await client.connectWith(agent, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, initializeParams);
      const created = await ctx.request(acp.methods.agent.session.new, { cwd: ws.root, mcpServers: [] });
      expect(
        created.configOptions?.map((option) => [option.id, option.type === "select" && option.currentValue]),
      ).toEqual([
        ["model", "openai:gpt-4.1"],
        ["approval_mode", "ask_first"],
      ]);
      const { sessionId } = created;
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "One" }],
      });
      const changed = await ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "model",
        value: "openai:gpt-4.1-mini",
      });
      expect(changed.configOptions[0]).toMatchObject({ currentValue: "openai:gpt-4.1-mini" });
      await expect(
        ctx.request(acp.methods.agent.session.setConfigOption, {
          sessionId,
          configId: "approval_mode",
          value: "never",
        }),
      ).rejects.toMatchObject({ code: -32602 });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Two" }],
      });
    });
    expect(fake.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      "gpt-4.1",
      "gpt-4.1-mini",
    ]);
  });

  it("offers the models of every provider with a key, and of the session's own", async () => {
    const modelsOffered = async (keyedProviders: string[]) => {
      const { agent, ws } = await inProcessAgent([], { keyedProviders });
      const { client } = recordingClient();
      return client.connectWith(agent, async (ctx) => {
        await ctx.request(acp.methods.agent.initialize, initializeParams);
        const created = await ctx.request(acp.methods.agent.session.new, { cwd: ws.root, mcpServers: [] });
        const model = created.configOptions?.find((option) => option.id === "model");
        return model?.type === "select"
          ? model.options.flatMap((option) => ("value" in option ? [option.value] : []))
          : [];
      });
    };
    const openaiOnly = await modelsOffered([]);
    expect(openaiOnly[0]).toBe("openai:gpt-4.1");
    expect(openaiOnly).toContain("openai:gpt-4.1-mini");
    expect(openaiOnly.some((id) => id.startsWith("anthropic:"))).toBe(false);
    expect(await modelsOffered(["anthropic"])).toContain("anthropic:claude-sonnet-4-5");
  });

  it("stops at once on a cancel while a permission question is open, the question answered as cancelled", async () => {
    const { agent, ws, fake } = await inProcessAgent(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "hi\n" } }] },
        { text: "Never." },
      ],
      { flags: ["--approval-mode", "manual"] },
    );
    let asked: () => void = () => {};
    const questionOpen = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let cancelled: () => void = () => {};
    const cancelSent = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    // As the protocol asks of a client: an open question is answered "cancelled" once the turn is.
    const client = acp
      .client({ name: "test-editor" })
      .onRequest(acp.methods.client.session.requestPermission, async () => {
        asked();
        await cancelSent;
        return { outcome: { outcome: "cancelled" } };
      });
    const stopReason = await client.connectWith(agent, async (ctx) => {
      const sessionId = await openSession(ctx, ws.root);
      const prompt = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Write it" }],
      });
      await questionOpen;
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      cancelled();
      return (await prompt).stopReason;
    });
    expect(stopReason).toBe("cancelled");
    expect(existsSync(join(ws.root, "notes.md"))).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("closes a session: it is gone from the connection and stays stored", async () => {
    const { agent, ws } = await inProcessAgent([{ text: "Kept." }]);
    const { client } = recordingClient();
    await client.connectWith(agent, async (ctx) => {
      const { sessionId } = await promptOnce(ctx, ws.root, "Keep this");
      expect(await ctx.request(acp.methods.agent.session.close, { sessionId })).toEqual({});
      await expect(
        ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "More" }],
        }),
      ).rejects.toMatchObject({ code: -32002 });
      // Closing it again leaves the same end state: ACP's not-found, which clients take as done.
      expect(await ctx.request(acp.methods.agent.session.close, { sessionId })).toEqual({});
      const listed = await ctx.request(acp.methods.agent.session.list, { cwd: ws.root });
      expect(listed.sessions.map((session) => session.sessionId)).toEqual([sessionId]);
      // An editor may authenticate whenever it likes: keys are read as sessions open.
      expect(await ctx.request(acp.methods.agent.authenticate, { methodId: "provider-key" })).toEqual({});
    });
  });

  it("leaves the file alone when the editor rejects the call", async () => {
    const { agent, ws } = await inProcessAgent(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "hi\n" } }] },
        { text: "Left it." },
      ],
      { flags: ["--approval-mode", "manual"] },
    );
    const { client } = recordingClient("reject_once");
    await client.connectWith(agent, (ctx) => promptOnce(ctx, ws.root, "Write it"));
    expect(existsSync(join(ws.root, "notes.md"))).toBe(false);
  });

  it("ends a prompt the model refused with the refusal stop reason", async () => {
    const { agent, ws } = await inProcessAgent([{ text: "I can't help with that.", refused: true }]);
    const { client, updates } = recordingClient();
    const { stopReason } = await client.connectWith(agent, (ctx) =>
      promptOnce(ctx, ws.root, "Something it declines"),
    );
    expect(stopReason).toBe("refusal");
    expect(answerText(updates)).toBe("I can't help with that.");
  });

  it("refuses a second prompt while one runs, and serves the session after it", async () => {
    const { agent, ws } = await inProcessAgent([
      { text: "slow ".repeat(400), chunk_delay_ms: 20 },
      { text: "Next." },
    ]);
    const { client, updates } = recordingClient();
    await client.connectWith(agent, async (ctx) => {
      const sessionId = await openSession(ctx, ws.root);
      const prompt = (text: string) =>
        ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
      const first = prompt("Talk slowly");
      while (!answerText(updates).includes("slow")) await new Promise((resolve) => setTimeout(resolve, 20));
      await expect(prompt("Interrupting")).rejects.toMatchObject({ code: -32600 });
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await first).stopReason).toBe("cancelled");
      expect((await prompt("And now?")).stopReason).toBe("end_turn");
    });
    expect(answerText(updates)).toMatch(/Next\.$/);
  });

  it("answers a prompt to an unknown session and an unknown mode with the protocol's error", async () => {
    const { agent, ws } = await inProcessAgent([]);
    const { client, updates } = recordingClient();
    await client.connectWith(agent, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, initializeParams);
      await expect(
        ctx.request(acp.methods.agent.session.prompt, {
          sessionId: "nope",
          prompt: [{ type: "text", text: "hi" }],
        }),
      ).rejects.toMatchObject({ code: -32002, data: { sessionId: "nope" } });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: ws.root,
        mcpServers: [],
      });
      await expect(
        ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" }),
      ).rejects.toMatchObject({
        code: -32602,
      });
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
      while (updates.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(updates.at(-1)).toEqual({ sessionUpdate: "current_mode_update", currentModeId: "plan" });
    });
  });
});

/** `lathe acp` as an editor starts it, against the scripted model: the client's stream to it. */
async function stdioAgent(turns: FakeTurn[], flags: string[] = []) {
  server = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace({ "README.md": "# A project\n" });
  const child = spawn(
    lathe,
    ["acp", "--model", "openai:gpt-4.1", "--base-url", `${server.url}/v1`, ...flags],
    {
      env: { HOME: ws.home, LATHE_HOME: ws.home, PATH: process.env.PATH, OPENAI_API_KEY: fakeKeys.openai },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const close = async () => {
    child.stdin.end();
    return new Promise<number | null>((resolve) => child.on("close", resolve));
  };
  return { stream, close, ws };
}

describe("lathe acp over stdio", () => {
  it("asks once about a command allowed always, and not again for the same command", async () => {
    const npmTest = { name: "run_terminal_cmd", arguments: { command: "npm test" } };
    const { stream, close, ws } = await stdioAgent(
      [{ tool_calls: [npmTest] }, { tool_calls: [npmTest] }, { text: "Twice." }],
      ["--approval-mode", "manual"],
    );
    const { client, updates, asked } = recordingClient("allow_always");
    await client.connectWith(stream, (ctx) => promptOnce(ctx, ws.root, "Test twice"));
    expect(await close()).toBe(0);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.toolCall.title).toBe("npm test");
    expect(asked[0]?.options.map((option) => option.name)).toEqual([
      "Allow",
      "Always allow (run_terminal_cmd(npm test *))",
      "Reject",
      "Always reject (run_terminal_cmd(npm test *))",
    ]);
    // Both calls ran (npm finds no package.json here: the command fails, the call does not).
    expect(
      updates.filter(
        (update) => update.sessionUpdate === "tool_call_update" && update.status === "completed",
      ),
    ).toHaveLength(2);
    expect(updates.find((update) => update.sessionUpdate === "tool_call")).toMatchObject({ kind: "execute" });
  });

  it("serves the SDK's client from the real binary, and stops a prompt on session/cancel", async () => {
    const { stream, close, ws } = await stdioAgent([{ text: "slow ".repeat(400), chunk_delay_ms: 20 }]);
    const updates: acp.SessionUpdate[] = [];
    const client = acp
      .client({ name: "test-editor" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params.update);
      });
    const stopped = await client.connectWith(stream, async (ctx) => {
      const sessionId = await openSession(ctx, ws.root);
      const prompt = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Talk slowly" }],
      });
      while (!updates.some((update) => update.sessionUpdate === "agent_message_chunk"))
        await new Promise((resolve) => setTimeout(resolve, 20));
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      return (await prompt).stopReason;
    });
    expect(stopped).toBe("cancelled");
    expect(await close()).toBe(0);
  });

  it("answers a malformed message and an unknown method with the protocol's errors, and keeps serving", async () => {
    server = await startFakeLlm({ script: { turns: [] } });
    const ws = await makeWorkspace({});
    const child = spawn(lathe, ["acp", "--model", "openai:gpt-4.1", "--base-url", `${server.url}/v1`], {
      env: { HOME: ws.home, LATHE_HOME: ws.home, PATH: process.env.PATH, OPENAI_API_KEY: fakeKeys.openai },
      stdio: ["pipe", "pipe", "inherit"],
    });
    const replies: { id?: unknown; error?: { code: number }; result?: unknown }[] = [];
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) if (line.trim() !== "") replies.push(JSON.parse(line));
    });
    child.stdin.write("{not json\n");
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams })}\n`,
    );
    const replied = async (id: number) => {
      const deadline = Date.now() + 10_000;
      while (!replies.some((reply) => reply.id === id) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    // Once initialized: before that, any other method is refused as such (-32600).
    await replied(1);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/teleport", params: {} })}\n`,
    );
    await replied(2);
    child.stdin.end();
    expect(await new Promise<number | null>((resolve) => child.on("close", resolve))).toBe(0);
    expect(replies.find((reply) => reply.error?.code === -32700)).toBeDefined();
    expect(replies.find((reply) => reply.id === 1)?.result).toMatchObject({
      protocolVersion: acp.PROTOCOL_VERSION,
    });
    expect(replies.find((reply) => reply.id === 2)?.error?.code).toBe(-32601);
  });
});
