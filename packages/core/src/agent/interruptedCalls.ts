import { errorInfo, type Message, type ToolCallPart, type ToolResultPart } from "@lathe/protocol";

/**
 * A stored conversation whose process died mid-round ends with tool calls that never got
 * results. Providers refuse such a history, and the model must not think the calls ran, so each
 * gets a result saying it was interrupted. Returns the parts of the closing tool message, or
 * undefined when the history is whole.
 */
export function closeInterruptedCalls(messages: readonly Message[]): ToolResultPart[] | undefined {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return undefined;
  const calls = last.parts.filter((part): part is ToolCallPart => part.type === "tool_call");
  if (calls.length === 0) return undefined;
  return calls.map((call) => ({
    type: "tool_result",
    callId: call.callId,
    providerCallId: call.providerCallId,
    name: call.name,
    status: "cancelled",
    output:
      "Interrupted: Lathe stopped before this call finished, so whether it ran is unknown. Check the files it would have touched before repeating it.",
    error: errorInfo("E_CANCELLED", "The session ended before this call finished."),
  }));
}
