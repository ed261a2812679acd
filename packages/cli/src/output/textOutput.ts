import type { AgentSession, RunResult } from "@lathe/core";
import type { LatheEvent } from "@lathe/protocol";
import { planSavedLine } from "./planSavedLine.js";

export interface TextStreams {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * Plain text, redacted: the answer streams to stdout; tool activity and problems go to stderr.
 * With the project root, a saved plan's path is shown from the current directory.
 */
export function textOutput(session: AgentSession, printTo: TextStreams, projectRoot?: string) {
  const streams: TextStreams = {
    out: (text) => printTo.out(session.redact(text)),
    err: (text) => printTo.err(session.redact(text)),
  };
  let atLineStart = true;
  const say = (text: string) => {
    if (!text) return;
    streams.out(text);
    atLineStart = text.endsWith("\n");
  };
  const unsubscribe = session.subscribe((event: LatheEvent) => {
    switch (event.type) {
      case "text_delta":
        say(event.delta);
        break;
      case "retry":
        streams.err(
          `\n[retrying: ${event.error.code} ${event.error.message}; attempt ${event.attempt} in ${event.delayMs} ms]\n`,
        );
        break;
      case "tool_call_ready":
        if (!atLineStart) say("\n");
        streams.err(`→ ${event.name} ${summarizeArgs(event.arguments)}\n`);
        break;
      case "tool_failed":
      case "tool_blocked":
        streams.err(`✗ ${event.name}: ${event.error.code} ${event.error.message}\n`);
        break;
      case "tool_rejected":
        streams.err(`✗ ${event.name}: rejected (${event.message})\n`);
        break;
      case "notice":
        streams.err(`[${event.level}${event.code ? ` ${event.code}` : ""}] ${event.message}\n`);
        break;
      case "plan_saved":
        if (!atLineStart) say("\n");
        streams.err(planSavedLine(event, projectRoot));
        break;
    }
  });
  return {
    finish(result: RunResult) {
      unsubscribe();
      if (!atLineStart) say("\n");
      if (result.status === "iteration_limit") streams.err(`${result.final}\n`);
      if (result.status === "cancelled") streams.err("Cancelled.\n");
      if (result.error && result.status === "failed") {
        streams.err(`Error ${result.error.code}: ${result.error.message}\n${result.error.hint}\n`);
      }
    },
  };
}

function summarizeArgs(args: unknown): string {
  const text = JSON.stringify(args) ?? "";
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
