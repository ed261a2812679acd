import { type FakeLlm, type FakeTurn, startFakeLlm } from "@lathe/testkit";
import { startTerminal, type Terminal } from "./terminalScreen.js";

/** What the terminal UI tests read of a request lathe sent, in the OpenAI shape. */
export interface OpenAiRequest {
  messages: unknown[];
  tools?: { function?: { name?: string } }[];
}

const servers: FakeLlm[] = [];

/** A scripted model of its own for one test, so its requests can be counted and read. */
export async function scriptedModel(turns: FakeTurn[]): Promise<FakeLlm> {
  const server = await startFakeLlm({ script: { turns } });
  servers.push(server);
  return server;
}

/** For afterEach, after closeTerminals: stops every scripted model started here. */
export async function closeScriptedModels(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

/** The flags that point lathe at the scripted model. */
export function modelArgs(server: FakeLlm): string[] {
  return ["--model", "openai:gpt-4.1", "--base-url", `${server.url}/v1`];
}

/** The i-th request the model received. */
export function request(server: FakeLlm, index: number): OpenAiRequest {
  const recorded = server.requests[index];
  if (!recorded) throw new Error(`the model received ${server.requests.length} requests, not ${index + 1}`);
  return recorded.body as OpenAiRequest;
}

/** The whole conversation of a request as text: the tests only ask whether some words reached the model. */
export function sentText(server: FakeLlm, index: number): string {
  return JSON.stringify(request(server, index).messages);
}

/**
 * Keys typed before the input exists would be lost, so every test first waits for the prompt line,
 * which starts with "› " (U+203A, a space), as each user message in the transcript does, and then
 * for raw mode, which comes a moment after the first frame.
 */
export async function waitForPrompt(terminal: Terminal): Promise<void> {
  await terminal.waitFor(/^› /m);
  await terminal.waitForInput();
}

/** Lathe in the terminal against the scripted model, once its prompt is up and ready for keys. */
export async function chat(
  server: FakeLlm,
  extra: string[] = [],
  at: { cwd?: string; home?: string } = {},
): Promise<Terminal> {
  const terminal = await startTerminal({ args: [...modelArgs(server), ...extra], ...at });
  await waitForPrompt(terminal);
  return terminal;
}

/** The input line: the last line on display that starts with the prompt mark, trimmed. */
export function inputLine(terminal: Terminal): string {
  const lines = terminal.viewport().split("\n");
  return (lines.filter((line) => line.startsWith("› ")).at(-1) ?? "").trimEnd();
}

/** Polls a condition on state outside the screen (the model's requests, /proc), up to a deadline. */
export async function eventually(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The keys line of every approval panel. */
export const approvalKeys = "[y] yes  [a] always  [n] no  [e] no, and say why";
