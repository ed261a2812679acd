import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { AgentSession, ModelClient, RunResult } from "@lathe/core";
import type { ControlChannel } from "./controlChannel.js";
import { fromClaudePermissionMode, isClaudePermissionMode } from "./permissionModes.js";
import { informationalLine } from "./sdkMessages.js";

export interface StreamJsonSessionInputs {
  session: AgentSession;
  control: ControlChannel;
  stdin: Readable;
  /** Prints one line on stdout (through the session's redactor). */
  write(line: Record<string, unknown>): void;
  /** Runs one user message and prints its lines and its result. */
  runMessage(text: string): Promise<RunResult>;
  /** A model client for `set_model`, or why there is none. */
  modelFor(modelId: string): { ok: true; client: ModelClient } | { ok: false; message: string };
  /** The models `initialize` names for a program to pick. */
  models: { value: string; displayName: string; description: string }[];
}

/**
 * `--input-format stream-json`: the process lives as long as its stdin is open and takes, one
 * NDJSON line at a time, user messages (each one run, in order, never folded into the run before
 * it) and the control requests of Claude Code's protocol as the Claude Agent SDK sends them:
 * `initialize`, `interrupt`, `set_permission_mode`, `set_model`; any other is answered as not
 * supported. Returns when stdin has closed and the last run has ended.
 */
export async function runStreamJsonSession(inputs: StreamJsonSessionInputs): Promise<void> {
  const { session, control, write } = inputs;
  const original = session.modelId;
  let runs: Promise<unknown> = Promise.resolve();
  const lines = createInterface({ input: inputs.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  // A bad line is said and skipped: it changes nothing, and the session goes on.
  const badInput = (level: "error" | "warn", message: string) =>
    write(informationalLine(session.id, level, message, "E_INVALID_INPUT"));
  for await (const raw of lines) {
    if (raw.trim() === "") continue;
    const line = parseLine(raw);
    if (!line.ok) {
      badInput("error", line.message);
      continue;
    }
    const message = line.value;
    switch (message.type) {
      case "user": {
        const text = userText(message.message);
        if (text === undefined) {
          badInput("error", "A user message needs message.content: a string or text blocks.");
          break;
        }
        runs = runs.then(() => inputs.runMessage(text));
        break;
      }
      case "control_response":
        control.receive(isRecord(message.response) ? message.response : {});
        break;
      case "control_request": {
        const requestId = typeof message.request_id === "string" ? message.request_id : undefined;
        const request = isRecord(message.request) ? message.request : {};
        if (requestId === undefined) break;
        control.respond(requestId, await answerRequest(request));
        break;
      }
      case "control_cancel_request":
        // Lathe answers the program's requests at once: there is nothing in flight to withdraw.
        break;
      default:
        badInput(
          "warn",
          `Skipped an input line of type ${JSON.stringify(message.type)}: Lathe takes user messages and control messages.`,
        );
    }
  }
  await runs;

  async function answerRequest(request: Record<string, unknown>) {
    switch (request.subtype) {
      case "initialize":
        // The SDK's systemPrompt.append; Lathe keeps its own system prompt and adds this to it.
        if (typeof request.appendSystemPrompt === "string" && request.appendSystemPrompt.trim() !== "")
          await session.context.addUserRule(request.appendSystemPrompt);
        return {
          ok: true as const,
          response: {
            commands: [],
            agents: [],
            output_style: "default",
            available_output_styles: ["default"],
            models: inputs.models,
            account: {},
          },
        };
      case "interrupt":
        session.cancel();
        return { ok: true as const, response: {} };
      case "set_permission_mode": {
        const mode = typeof request.mode === "string" ? request.mode : "";
        if (!isClaudePermissionMode(mode))
          return { ok: false as const, error: `Unknown permission mode ${JSON.stringify(mode)}.` };
        const lathe = fromClaudePermissionMode(mode);
        session.setMode(lathe.mode);
        session.setApprovalMode(lathe.approvalMode);
        control.askNobody = lathe.askNobody;
        return { ok: true as const, response: {} };
      }
      case "set_model": {
        const wanted = typeof request.model === "string" && request.model !== "" ? request.model : original;
        const made = inputs.modelFor(wanted);
        if (!made.ok) return { ok: false as const, error: made.message };
        session.setModel(made.client);
        return { ok: true as const, response: {} };
      }
      default:
        return {
          ok: false as const,
          error: `Lathe does not support the control request ${JSON.stringify(request.subtype)}.`,
        };
    }
  }
}

function parseLine(
  raw: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  try {
    const value: unknown = JSON.parse(raw);
    if (isRecord(value)) return { ok: true, value };
    return { ok: false, message: "An input line must be a JSON object." };
  } catch (error) {
    return {
      ok: false,
      message: `An input line is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** The text of a Messages API user message: a string, or its text blocks joined. */
function userText(message: unknown): string | undefined {
  if (!isRecord(message)) return undefined;
  const { content } = message;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter(isRecord)
    .filter((block) => block.type === "text" && typeof block.text === "string");
  if (texts.length === 0) return undefined;
  return texts.map((block) => block.text as string).join("\n\n");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
