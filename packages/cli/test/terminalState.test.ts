import { describe, expect, it } from "vitest";
import { TerminalState } from "../src/terminalUi/terminalState.js";
import { withNotice } from "../src/terminalUi/transcriptModel.js";

const notice = (text: string) => (view: ReturnType<TerminalState["current"]>) => ({
  ...view,
  transcript: withNotice(view.transcript, text),
});
const texts = (state: TerminalState) =>
  state.current().transcript.items.map((item) => (item.kind === "notice" ? item.text : item.kind));

describe("the terminal UI's state", () => {
  it("applies changes made soon together, with one drawing for all of them", async () => {
    const state = new TerminalState();
    let drawings = 0;
    state.subscribe(() => drawings++);
    for (const text of ["a", "b", "c"]) state.updateSoon(notice(text));
    expect(texts(state)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(texts(state)).toEqual(["a", "b", "c"]);
    expect(drawings).toBe(1);
  });

  it("applies the waiting changes first when a change is made at once, so none is reordered", () => {
    const state = new TerminalState();
    state.updateSoon(notice("streamed"));
    state.update(notice("said"));
    expect(texts(state)).toEqual(["streamed", "said"]);
  });

  it("draws a resumed conversation a few items at a time, and a change to the transcript after all of it", async () => {
    const state = new TerminalState();
    const history = Array.from({ length: 120 }, (_, at) => ({
      kind: "user" as const,
      text: `message ${at}`,
    }));
    state.showHistory(history);
    expect(state.current().transcript.items).toHaveLength(50);
    // A hint leaves the transcript alone: the history goes on being drawn a few items at a time.
    state.update((view) => ({ ...view, hint: "a hint" }));
    expect(state.current().transcript.items).toHaveLength(50);
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.current().transcript.items).toHaveLength(100);
    state.update(notice("said"));
    expect(texts(state)).toEqual([...history.map(() => "user"), "said"]);
    expect(state.current().transcript.items.at(-2)).toEqual({ kind: "user", text: "message 119" });
  });
});
