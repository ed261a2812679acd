import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { latheAcpAgent } from "../src/acp/acpAgent.js";
import { sessionLister, sessionOpener } from "../src/acpCommand.js";
import { parseCliArgs } from "../src/cliArgs.js";
import { loadUserSettings } from "../src/userSettings.js";
import { makeWorkspace } from "./latheProcess.js";

/** What the in-process agents of a test opened: sessions and the scripted model server. */
const opened: (() => Promise<void>)[] = [];

/** Closes what the test's agents opened; for `afterEach`. */
export async function closeAgents(): Promise<void> {
  for (const close of opened.splice(0).reverse()) await close();
}

/**
 * Lathe's agent in this process, opening real sessions against the scripted model. `ws` reuses a
 * project and home (a second agent over the sessions of a first, as after an editor restarts).
 */
export async function inProcessAgent(
  turns: FakeTurn[],
  options: {
    flags?: string[];
    ws?: { root: string; home: string };
    files?: Record<string, string>;
    /** The providers the agent says have a key; OpenAI's alone by default. */
    keyedProviders?: string[];
    /** The model comes from the user's settings, not from `--model` (which would override a session's own). */
    modelInSettings?: boolean;
  } = {},
): Promise<{ agent: acp.AgentApp; ws: { root: string; home: string }; fake: FakeLlm }> {
  const fake = await startFakeLlm({ script: { turns } });
  opened.push(() => fake.close());
  const ws = options.ws ?? (await makeWorkspace({ "README.md": "# A project\n", ...options.files }));
  if (options.modelInSettings)
    writeFileSync(
      join(ws.home, "settings.json"),
      JSON.stringify({ model: "openai:gpt-4.1", baseUrls: { openai: `${fake.url}/v1` } }),
    );
  const modelFlags = options.modelInSettings
    ? []
    : ["--model", "openai:gpt-4.1", "--base-url", `${fake.url}/v1`];
  const parsed = parseCliArgs([...modelFlags, ...(options.flags ?? [])], ws.root);
  if (!parsed.ok) throw new Error(parsed.message);
  const settings = loadUserSettings(ws.home);
  if (!settings.ok) throw new Error(settings.message);
  const open = sessionOpener({
    args: parsed.args,
    settings: settings.settings,
    env: { HOME: ws.home, PATH: process.env.PATH, OPENAI_API_KEY: fakeKeys.openai },
    latheHome: ws.home,
  });
  const agent = latheAcpAgent({
    version: "test",
    providerKeyAdvice: () => undefined,
    keyedProviders: () => new Set(options.keyedProviders ?? ["openai"]),
    listSessions: sessionLister(ws.home, { HOME: ws.home }),
    async openSession(request) {
      const made = await open(request);
      if (made.ok) opened.push(made.value.close);
      return made;
    },
  });
  return { agent, ws, fake };
}

export type PermissionAnswer = "allow_once" | "allow_always" | "reject_once" | "reject_always";

/** A client that records every session update and answers permission requests with `answer`. */
export function recordingClient(answer: PermissionAnswer = "allow_once") {
  const updates: acp.SessionUpdate[] = [];
  const asked: acp.RequestPermissionRequest[] = [];
  const client = acp
    .client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      asked.push(params);
      return { outcome: { outcome: "selected", optionId: answer } };
    });
  return { client, updates, asked };
}

export const initializeParams: acp.InitializeRequest = {
  protocolVersion: acp.PROTOCOL_VERSION,
  clientCapabilities: {},
};

/** The handshake and a new session in `cwd`: its id. */
export async function openSession(ctx: acp.ClientContext, cwd: string): Promise<string> {
  await ctx.request(acp.methods.agent.initialize, initializeParams);
  const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  return sessionId;
}

/**
 * The handshake (with the client's capabilities), a session in `cwd`, and one prompt to it, run
 * to its end: the session and how the prompt ended.
 */
export async function promptOnce(
  ctx: acp.ClientContext,
  cwd: string,
  prompt: string | acp.ContentBlock[],
  clientCapabilities: acp.ClientCapabilities = {},
): Promise<{ sessionId: string; stopReason: acp.StopReason }> {
  await ctx.request(acp.methods.agent.initialize, { ...initializeParams, clientCapabilities });
  const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  const blocks: acp.ContentBlock[] = typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
  const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
  return { sessionId, stopReason };
}

/** The text of the answer's chunks, in order. */
export function answerText(updates: readonly acp.SessionUpdate[]): string {
  return updates
    .map((update) =>
      update.sessionUpdate === "agent_message_chunk" && update.content.type === "text"
        ? update.content.text
        : "",
    )
    .join("");
}
