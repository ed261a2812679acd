import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";

/** What a provider package made of one streamed response. */
export interface StreamSummary {
  text: string;
  reasoning: string;
  textDeltas: number;
  reasoningDeltas: number;
  toolCalls: { id: string; name: string; input: string }[];
  /** How many argument fragments each tool call arrived in, by tool call id. */
  toolInputDeltas: Map<string, number>;
  finishReason: string | undefined;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  /** `error` stream parts, and the error the stream itself failed with, if any. */
  errors: unknown[];
}

export const callOptions = (abortSignal?: AbortSignal): LanguageModelV3CallOptions => ({
  prompt: [{ role: "user", content: [{ type: "text", text: "Read a.txt and find the TODOs." }] }],
  abortSignal,
});

export function summarise(parts: LanguageModelV3StreamPart[]): StreamSummary {
  const summary: StreamSummary = {
    text: "",
    reasoning: "",
    textDeltas: 0,
    reasoningDeltas: 0,
    toolCalls: [],
    toolInputDeltas: new Map(),
    finishReason: undefined,
    inputTokens: undefined,
    outputTokens: undefined,
    errors: [],
  };
  for (const part of parts) {
    switch (part.type) {
      case "text-delta":
        summary.text += part.delta;
        if (part.delta.length > 0) summary.textDeltas++;
        break;
      case "reasoning-delta":
        summary.reasoning += part.delta;
        if (part.delta.length > 0) summary.reasoningDeltas++;
        break;
      case "tool-input-delta":
        summary.toolInputDeltas.set(part.id, (summary.toolInputDeltas.get(part.id) ?? 0) + 1);
        break;
      case "tool-call":
        summary.toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
        break;
      case "finish":
        summary.finishReason = part.finishReason.unified;
        summary.inputTokens = part.usage.inputTokens.total;
        summary.outputTokens = part.usage.outputTokens.total;
        break;
      case "error":
        summary.errors.push(part.error);
        break;
    }
  }
  return summary;
}

/** Drives the model's real `doStream` over HTTP and reads the stream to its end (or its failure). */
export async function streamFrom(model: LanguageModelV3, abortSignal?: AbortSignal): Promise<StreamSummary> {
  const { stream } = await model.doStream(callOptions(abortSignal));
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  let failure: unknown;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } catch (error) {
    failure = error;
  }
  const summary = summarise(parts);
  if (failure !== undefined) summary.errors.push(failure);
  return summary;
}
