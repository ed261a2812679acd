import { useInput } from "ink";
import type { TerminalState } from "./terminalState.js";
import { withReasoningShown } from "./transcriptModel.js";

/**
 * Ctrl+O, as in Claude Code: the latest thinking, which the transcript keeps to one line, shown
 * whole. Its own key handler, beside the prompt's and the panels', so it works whichever has the keys.
 */
export function ReasoningKey({ state }: { state: TerminalState }) {
  useInput((input, key) => {
    if (key.eventType === "release" || !key.ctrl || input !== "o") return;
    state.update((view) => ({ ...view, transcript: withReasoningShown(view.transcript) }));
  });
  return null;
}
