import type { EditorState, EditorStateDelta } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { EditorStateTracker } from "../../../src/context/dynamic/editorStateTracker.js";

const full: EditorState = {
  openFiles: [
    { path: "src/a.ts", cursor: { line: 3, column: 2 } },
    { path: "src/b.ts", content: "unsaved\n" },
  ],
  activeFile: "src/a.ts",
  diagnostics: [{ path: "src/a.ts", line: 3, severity: "error", message: "boom" }],
  terminalOutput: "$ npm test\nok\n",
};

describe("EditorStateTracker", () => {
  it("starts empty", () => {
    expect(new EditorStateTracker().current).toEqual({ openFiles: [], diagnostics: [] });
  });

  it("takes a full state, then deltas: present fields replace, null clears, absent fields stay", () => {
    const tracker = new EditorStateTracker();
    expect(tracker.apply({ full })).toEqual({ ok: true });
    expect(tracker.current).toEqual(full);

    expect(tracker.apply({ delta: { activeFile: "src/b.ts", terminalOutput: null } })).toEqual({ ok: true });
    expect(tracker.current).toEqual({
      openFiles: full.openFiles,
      activeFile: "src/b.ts",
      diagnostics: full.diagnostics,
    });

    const openFiles = [{ path: "src/c.ts", cursor: { line: 1, column: 1 } }];
    expect(tracker.apply({ delta: { openFiles, diagnostics: [], activeFile: null } })).toEqual({ ok: true });
    expect(tracker.current).toEqual({ openFiles, diagnostics: [] });

    expect(tracker.apply({ delta: {} })).toEqual({ ok: true });
    expect(tracker.current).toEqual({ openFiles, diagnostics: [] });
  });

  it("fills the defaults of a full state that leaves lists out", () => {
    const tracker = new EditorStateTracker();
    expect(tracker.apply({ full: { activeFile: "x.ts" } as EditorState })).toEqual({ ok: true });
    expect(tracker.current).toEqual({ openFiles: [], activeFile: "x.ts", diagnostics: [] });
  });

  it("refuses an invalid delta with E_INVALID_ARGS and keeps the state as it was", () => {
    const tracker = new EditorStateTracker();
    tracker.apply({ full });
    const before = tracker.current;
    const bad = { openFiles: [{ path: "a.ts", cursor: { line: 0, column: 1 } }] } as EditorStateDelta;
    const result = tracker.apply({ delta: bad });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("E_INVALID_ARGS");
      expect(result.error.message).toMatch(/^Invalid editor state delta: openFiles\.0\.cursor\.line: /);
    }
    expect(tracker.current).toBe(before);
    expect(tracker.current).toEqual(full);
  });

  it("refuses an invalid full state and keeps the state as it was", () => {
    const tracker = new EditorStateTracker();
    tracker.apply({ full });
    const result = tracker.apply({ full: { openFiles: "nope" } as unknown as EditorState });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^Invalid full editor state: openFiles: /);
    expect(tracker.current).toEqual(full);
  });

  it("refuses a delta before any full state: the editor must send everything first", () => {
    const tracker = new EditorStateTracker();
    const result = tracker.apply({ delta: { activeFile: "a.ts" } });
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: "E_INVALID_ARGS",
        message: "An editor state delta arrived before any full state; send the full state first.",
      }),
    });
    expect(tracker.current).toEqual({ openFiles: [], diagnostics: [] });
  });

  it("refuses an update that is neither full nor delta", () => {
    const result = new EditorStateTracker().apply({} as { full: EditorState });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("E_INVALID_ARGS");
  });
});
