import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/context/loopDetection/canonicalJson.js";
import { LoopDetector } from "../../../src/context/loopDetection/loopDetector.js";

const read = (args: unknown) => ({ name: "read_file", arguments: args, readOnly: true });
const runTests = { name: "run_terminal_cmd", arguments: { command: "npm test" }, readOnly: false };
const edit = {
  name: "edit_file",
  arguments: { path: "a.ts", old_string: "a", new_string: "b" },
  readOnly: false,
};

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson(undefined)).toBe("undefined");
  });
});

describe("LoopDetector: identical calls", () => {
  it("warns at the 4th identical call in a row and stops at the 6th", () => {
    const detector = new LoopDetector();
    const verdicts = Array.from({ length: 6 }, () => detector.recordCall(runTests));
    expect(verdicts.slice(0, 3)).toEqual([{ action: "none" }, { action: "none" }, { action: "none" }]);
    expect(verdicts[3]).toEqual({
      action: "warn",
      kind: "identical_calls",
      count: 4,
      message:
        "You have called run_terminal_cmd 4 times in a row with the same arguments. Repeating it will not change the result: read the last result, then change the arguments or take a different approach. The run stops at 6.",
    });
    expect(verdicts[4]).toMatchObject({ action: "warn", kind: "identical_calls", count: 5 });
    expect(verdicts[5]).toEqual({
      action: "stop",
      kind: "identical_calls",
      count: 6,
      message:
        "Stopped: run_terminal_cmd was called 6 times in a row with the same arguments, so the run was ended as a loop (E_LOOP_DETECTED). Look at what the call returned and choose a different approach.",
    });
  });

  it("treats arguments with keys in another order as the same call", () => {
    const detector = new LoopDetector();
    detector.recordCall({ name: "grep", arguments: { pattern: "x", path: "src" }, readOnly: false });
    detector.recordCall({ name: "grep", arguments: { path: "src", pattern: "x" }, readOnly: false });
    detector.recordCall({ name: "grep", arguments: { pattern: "x", path: "src" }, readOnly: false });
    expect(
      detector.recordCall({ name: "grep", arguments: { path: "src", pattern: "x" }, readOnly: false }),
    ).toMatchObject({
      action: "warn",
      count: 4,
    });
  });

  it("does not count reading different ranges of one file", () => {
    const detector = new LoopDetector();
    const verdicts = [0, 100, 200, 300].map((offset) =>
      detector.recordCall(read({ path: "a.ts", offset, limit: 100 })),
    );
    expect(verdicts.every((v) => v.action === "none")).toBe(true);
  });

  it("does not count a test-edit-test cycle as calls in a row", () => {
    const detector = new LoopDetector();
    const verdicts = [];
    for (let i = 0; i < 6; i++) {
      verdicts.push(detector.recordCall(runTests));
      verdicts.push(detector.recordCall(edit));
    }
    expect(verdicts.every((v) => v.action === "none")).toBe(true);
  });

  it("starts counting again in a new run, and follows its settings", () => {
    const detector = new LoopDetector({ warnIdenticalCalls: 2, stopIdenticalCalls: 3 });
    detector.recordCall(runTests);
    detector.resetRun();
    expect(detector.recordCall(runTests)).toEqual({ action: "none" });
    expect(detector.recordCall(runTests)).toMatchObject({ action: "warn", count: 2 });
    expect(detector.recordCall(runTests)).toMatchObject({ action: "stop", count: 3 });
    const off = new LoopDetector({ warnIdenticalCalls: 0, stopIdenticalCalls: 0, readsBeforeWrite: 0 });
    for (let i = 0; i < 10; i++) expect(off.recordCall(read({ path: "a" }))).toEqual({ action: "none" });
  });
});

describe("LoopDetector: read streaks", () => {
  it("hints after 5 read-only calls in a row before any write, again at 10", () => {
    const detector = new LoopDetector();
    const verdicts = Array.from({ length: 10 }, (_, i) => detector.recordCall(read({ path: `f${i}.ts` })));
    expect(verdicts.slice(0, 4).every((v) => v.action === "none")).toBe(true);
    expect(verdicts[4]).toEqual({
      action: "warn",
      kind: "read_streak",
      count: 5,
      message:
        "You have made 5 read-only calls in a row without changing anything. If you know enough, start making the change now; read more only for a specific missing fact.",
    });
    expect(verdicts.slice(5, 9).every((v) => v.action === "none")).toBe(true);
    expect(verdicts[9]).toMatchObject({ kind: "read_streak", count: 10 });
  });

  it("after a write, hints only at 10 reads in a row", () => {
    const detector = new LoopDetector();
    detector.recordCall(read({ path: "a.ts" }));
    detector.recordCall(edit);
    const verdicts = Array.from({ length: 10 }, (_, i) => detector.recordCall(read({ path: `f${i}.ts` })));
    expect(verdicts.slice(0, 9).every((v) => v.action === "none")).toBe(true);
    expect(verdicts[9]).toEqual({
      action: "warn",
      kind: "read_streak",
      count: 10,
      message:
        "You have made 10 read-only calls in a row since your last change. The task may already be done: if your change is verified, stop and report; otherwise make the next change.",
    });
  });

  it("prefers the identical-call warning when both apply", () => {
    const detector = new LoopDetector({ readsBeforeWrite: 4 });
    for (let i = 0; i < 3; i++) detector.recordCall(read({ path: "same.ts" }));
    expect(detector.recordCall(read({ path: "same.ts" }))).toMatchObject({
      kind: "identical_calls",
      count: 4,
    });
  });
});
