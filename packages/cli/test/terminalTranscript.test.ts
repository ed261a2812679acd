import type { LatheEvent } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { approvalDetail, callTarget } from "../src/terminalUi/approvalDetail.js";
import { commandOutput } from "../src/terminalUi/commandOutput.js";
import { unifiedDiffFiles } from "../src/terminalUi/diffLines.js";
import { diffText } from "../src/terminalUi/diffRows.js";
import { inlineSpans, markdownBlocks } from "../src/terminalUi/markdownBlocks.js";
import { commandNames, completeCommand, parseSlashCommand } from "../src/terminalUi/slashCommands.js";
import {
  type CodeToken,
  fenceLanguage,
  highlightCode,
  pathLanguage,
} from "../src/terminalUi/syntaxHighlight.js";
import { completedDiff } from "../src/terminalUi/toolDiff.js";
import {
  emptyTranscript,
  fromHistory,
  withEvent,
  withReasoningShown,
} from "../src/terminalUi/transcriptModel.js";

const base = { runId: "r", sessionId: "s", seq: 0, at: 0 };
/** The transcript after these events, from an empty one. */
function after(events: Record<string, unknown>[]) {
  return events.reduce(
    (transcript, event) => withEvent(transcript, { ...base, ...event } as unknown as LatheEvent),
    emptyTranscript(),
  );
}

describe("the terminal transcript", () => {
  it("keeps the answer, each call and its outcome in the order they happened", () => {
    const transcript = after([
      { type: "run_start", mode: "agent", model: "m", prompt: "p" },
      { type: "reasoning_delta", messageId: "m", delta: "Let me look.", at: 1000 },
      { type: "reasoning_delta", messageId: "m", delta: "\nAt a.ts first.", at: 2000 },
      { type: "text_delta", messageId: "m", delta: "Reading it", at: 4000 },
      { type: "tool_call_ready", callId: "c1", name: "read_file", arguments: { path: "a.ts" } },
      { type: "tool_completed", callId: "c1", name: "read_file", output: "…", durationMs: 12 },
      { type: "tool_call_ready", callId: "c2", name: "run_terminal_cmd", arguments: { command: "npm test" } },
      { type: "tool_output", callId: "c2", name: "run_terminal_cmd", stream: "stdout", chunk: "1 failing\n" },
      {
        type: "tool_completed",
        callId: "c2",
        name: "run_terminal_cmd",
        output: "Exit code: 1\n--- stdout ---\n6 passing\n1 failing\n--- stderr ---\nnpm ERR! Test failed.",
        durationMs: 2500,
        exitCode: 1,
      },
      { type: "text_delta", messageId: "m2", delta: "One test fails." },
      { type: "run_complete", reason: "completed", iterations: 2, final: "", usage: {}, durationMs: 1 },
    ]);
    expect(transcript.items).toEqual([
      { kind: "reasoning", text: "Let me look.\nAt a.ts first.", seconds: 3 },
      { kind: "answer", text: "Reading it" },
      { kind: "call", summary: "Reading a.ts", outcome: "done", step: 1, seconds: 0.012 },
      {
        kind: "call",
        summary: "Running npm test",
        outcome: "failed",
        step: 2,
        seconds: 2.5,
        exitCode: 1,
        detail: "6 passing\n1 failing\nnpm ERR! Test failed.",
      },
      { kind: "answer", text: "One test fails." },
    ]);
    expect(transcript.calls).toEqual([]);
  });

  it("numbers the calls of each run from 1, and says what a call waits for", () => {
    const waiting = after([
      { type: "tool_call_ready", callId: "c1", name: "read_file", arguments: { path: "a.ts" } },
      { type: "tool_completed", callId: "c1", name: "read_file", output: "…", durationMs: 1 },
      { type: "run_start", mode: "agent", model: "m", prompt: "p" },
      {
        type: "tool_call_ready",
        callId: "c2",
        name: "write_file",
        arguments: { path: "b.md", contents: "" },
      },
      { type: "tool_call_state", callId: "c2", name: "write_file", state: "awaiting_approval" },
    ]);
    expect(waiting.items).toMatchObject([{ kind: "call", step: 1 }]);
    expect(waiting.calls).toMatchObject([{ callId: "c2", step: 1, state: "awaiting_approval" }]);
  });

  it("keeps what a finished edit changed, numbered as the tool's diff numbers it", () => {
    const output = [
      "Edited src/a.ts (exact match).",
      "",
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -11,3 +11,3 @@",
      " const x = 0;",
      "-const a = 1;",
      "+const a = 2;",
      " export { a };",
      "",
      "New lint errors in src/a.ts:",
    ].join("\n");
    const transcript = after([
      {
        type: "tool_call_ready",
        callId: "c1",
        name: "edit_file",
        arguments: { path: "src/a.ts", old_string: "const a = 1;", new_string: "const a = 2;" },
      },
      { type: "tool_completed", callId: "c1", name: "edit_file", output, durationMs: 5 },
    ]);
    expect(transcript.items.at(-1)).toEqual({
      kind: "call",
      summary: "Editing src/a.ts (replacing ~1 line)",
      outcome: "done",
      step: 1,
      seconds: 0.005,
      diff: [
        {
          path: "src/a.ts",
          hunks: [
            [
              { kind: "context", text: "const x = 0;", number: 11 },
              { kind: "del", text: "const a = 1;", number: 12 },
              { kind: "add", text: "const a = 2;", number: 12 },
              { kind: "context", text: "export { a };", number: 13 },
            ],
          ],
        },
      ],
    });
  });

  it("nests a sub-agent's rounds and steps under the task call that started it", () => {
    const started = [
      { type: "tool_call_ready", callId: "t1", name: "task", arguments: { description: "Find the config" } },
      {
        type: "subagent_start",
        subagentId: "s1",
        callId: "t1",
        agent: "explore",
        description: "Find the config",
      },
      { type: "subagent_progress", subagentId: "s1", kind: "iteration", iteration: 2 },
      {
        type: "subagent_progress",
        subagentId: "s1",
        kind: "tool",
        iteration: 0,
        tool: "read_file",
        toolState: "executing",
      },
    ];
    const step = {
      type: "subagent_step",
      subagentId: "s1",
      step: {
        kind: "tool",
        callId: "x",
        name: "read_file",
        arguments: { path: "lathe.json" },
        state: "completed",
        output: "{}",
      },
    };
    const running = after([...started, step]);
    expect(running.calls[0]?.subagents).toEqual([
      {
        id: "s1",
        agent: "explore",
        description: "Find the config",
        round: 2,
        running: "read_file",
        steps: [{ summary: "Reading lathe.json", outcome: "done" }],
      },
    ]);
    const finished = after([
      ...started,
      step,
      {
        type: "subagent_finish",
        subagentId: "s1",
        status: "completed",
        iterations: 3,
        usage: {},
        durationMs: 4200,
      },
      { type: "tool_completed", callId: "t1", name: "task", output: "Found it.", durationMs: 4300 },
    ]);
    expect(finished.items.at(-1)).toMatchObject({
      kind: "call",
      subagents: [
        {
          agent: "explore",
          round: 3,
          running: undefined,
          status: "completed",
          seconds: 4.2,
          steps: [{ outcome: "done" }],
        },
      ],
    });
  });

  it("shows the latest thinking whole once on asking, and again only after new thinking", () => {
    const thought = after([
      { type: "reasoning_delta", messageId: "m", delta: "First idea." },
      { type: "text_delta", messageId: "m", delta: "Answer." },
      { type: "reasoning_delta", messageId: "m2", delta: "Second idea." },
      { type: "run_complete", reason: "completed", iterations: 1, final: "", usage: {}, durationMs: 1 },
    ]);
    const shown = withReasoningShown(thought);
    expect(shown.items.slice(thought.items.length)).toEqual([
      { kind: "reasoning", text: "Second idea.", seconds: 0, expanded: true },
    ]);
    expect(withReasoningShown(shown)).toBe(shown);
    expect(withReasoningShown(emptyTranscript()).items).toEqual([]);
  });

  it("shows a resumed session's thinking, a failed command and an edit's diff as they were", () => {
    const transcript = fromHistory([
      { id: "1", role: "user", parts: [{ type: "text", text: "Fix it" }] },
      {
        id: "2",
        role: "assistant",
        parts: [
          { type: "reasoning", text: "Run the tests first." },
          {
            type: "tool_call",
            callId: "c1",
            providerCallId: "p1",
            name: "run_terminal_cmd",
            arguments: { command: "npm test" },
            rawArguments: "",
          },
          {
            type: "tool_call",
            callId: "c2",
            providerCallId: "p2",
            name: "write_file",
            arguments: { path: "n.md", contents: "hi\n" },
            rawArguments: "",
          },
        ],
      },
      {
        id: "3",
        role: "tool",
        parts: [
          {
            type: "tool_result",
            callId: "c1",
            providerCallId: "p1",
            name: "run_terminal_cmd",
            status: "success",
            output: "Exit code: 2",
            exitCode: 2,
          },
          {
            type: "tool_result",
            callId: "c2",
            providerCallId: "p2",
            name: "write_file",
            status: "success",
            output: "Created n.md",
          },
        ],
      },
    ] as unknown as Parameters<typeof fromHistory>[0]);
    expect(transcript.items).toEqual([
      { kind: "user", text: "Fix it" },
      { kind: "reasoning", text: "Run the tests first." },
      { kind: "call", summary: "Running npm test", outcome: "failed", exitCode: 2 },
      {
        kind: "call",
        summary: "Writing n.md (1 line)",
        outcome: "done",
        diff: [{ path: "n.md", hunks: [[{ kind: "add", text: "hi", number: 1 }]] }],
      },
    ]);
  });

  it("shows a queued message until it is delivered, then as the user's", () => {
    const queued = after([{ type: "message_queued", text: "also this" }]);
    expect(queued.queued).toEqual(["also this"]);
    const delivered = withEvent(queued, {
      ...base,
      type: "message_delivered",
      text: "also this",
      messageId: "m",
    });
    expect(delivered.queued).toEqual([]);
    expect(delivered.items.at(-1)).toEqual({ kind: "user", text: "also this" });
  });

  it("says a cancelled run stopped, and keeps the plan it had", () => {
    const transcript = after([
      { type: "todos", todos: [{ id: "1", content: "Fix it", status: "in_progress" }] },
      { type: "run_complete", reason: "cancelled", iterations: 1, final: "", usage: {}, durationMs: 1 },
    ]);
    expect(transcript.items).toEqual([
      { kind: "todos", todos: [{ id: "1", content: "Fix it", status: "in_progress" }] },
      { kind: "notice", level: "info", text: "Stopped." },
    ]);
    expect(transcript.todos).toEqual([]);
  });
});

describe("a streaming answer in the transcript", () => {
  it("moves each finished paragraph to the scrollback and keeps the one being written live", () => {
    const pieces = ["# Plan\n", "\nRead the ", "code.\n\n- one\n", "- two\n\nThen"];
    const transcript = after(pieces.map((delta) => ({ type: "text_delta", delta })));
    expect(transcript.items).toEqual([
      { kind: "answer", text: "# Plan" },
      { kind: "answer", text: "Read the code." },
      { kind: "answer", text: "- one\n- two" },
    ]);
    expect(transcript.answer).toBe("Then");
  });
});

describe("an answer cut off for repeating itself", () => {
  it("ends there, says why, and the model's next answer starts apart from it", () => {
    const transcript = after([
      { type: "text_delta", delta: "slow slow slow" },
      { type: "loop_warning", kind: "repeated_content", count: 3, message: "Stop repeating." },
      { type: "text_delta", delta: "Got it." },
    ]);
    expect(transcript.items).toEqual([
      { kind: "answer", text: "slow slow slow" },
      {
        kind: "notice",
        level: "warning",
        text: "The answer kept repeating itself, so it was cut off; the model was told and asked again.",
      },
    ]);
    expect(transcript.answer).toBe("Got it.");
  });
});

describe("slash commands", () => {
  const cases: [line: string, custom: string[], expected: ReturnType<typeof parseSlashCommand>][] = [
    ["/help", [], { kind: "help" }],
    ["/compact keep the API", [], { kind: "compact", focus: "keep the API" }],
    ["/model openai:gpt-4.1-mini", [], { kind: "model", value: "openai:gpt-4.1-mini" }],
    ["/mode", [], { kind: "mode" }],
    ["/explain the cache", ["explain"], { kind: "send" }],
    ["/mcp__github__review 12", [], { kind: "send" }],
    ["/undo", [], { kind: "undo" }],
    ["/resume", [], { kind: "resume" }],
    ["/resume 01a2", [], { kind: "resume", value: "01a2" }],
    ["/clear", [], { kind: "clear" }],
    ["/sessions", [], { kind: "sessions" }],
    ["/checkpoints", [], { kind: "checkpoints" }],
    ["/mcp", [], { kind: "mcp" }],
    ["/trust", [], { kind: "trust" }],
    ["/cloud", [], { kind: "cloud", args: "" }],
    [
      '/cloud submit "fix the cache" --priority 2',
      [],
      { kind: "cloud", args: 'submit "fix the cache" --priority 2' },
    ],
    ["/nonsense", [], { kind: "unknown", name: "nonsense" }],
    ["fix /etc/hosts parsing", [], undefined],
  ];
  for (const [line, custom, expected] of cases)
    it(JSON.stringify(line), () => {
      expect(parseSlashCommand(line, custom)).toEqual(expected);
    });
});

describe("approval details", () => {
  it("shows a command as typed, an edit as removed and added lines, a write as numbered added lines", () => {
    expect(approvalDetail({ command: "npm test" })).toBe("$ npm test");
    expect(approvalDetail({ path: "a.ts", old_string: "const a = 1;", new_string: "const a = 2;" })).toBe(
      "- const a = 1;\n+ const a = 2;",
    );
    expect(approvalDetail({ path: "b.md", contents: "one\ntwo\n" })).toBe("1 + one\n2 + two");
    expect(
      approvalDetail({ path: "big.txt", contents: "x\n".repeat(25) })
        .split("\n")
        .at(-1),
    ).toBe("… 5 more lines");
    expect(callTarget({ path: "a.ts" })).toBe("a.ts");
    expect(callTarget({ query: "nothing to name" })).toBe("");
  });

  it("keeps the lines an edit leaves alone as context, and marks where edits and hunks skip", () => {
    expect(
      approvalDetail({
        path: "a.ts",
        edits: [
          { old_string: "function a() {\n  return 1;\n}", new_string: "function a() {\n  return 2;\n}" },
          { old_string: "b();", new_string: "" },
        ],
      }),
    ).toBe("  function a() {\n-   return 1;\n+   return 2;\n  }\n⋮\n- b();");
    const patch = [
      "*** Begin Patch",
      "*** Add File: new.md",
      "+# New",
      "+text",
      "*** Update File: old.md",
      "@@ intro",
      " keep",
      "-drop",
      "@@ end",
      "+more",
      "*** Delete File: gone.md",
      "*** End Patch",
    ].join("\n");
    expect(approvalDetail({ patch })).toBe(
      [
        "new.md",
        "1 + # New",
        "2 + text",
        "old.md",
        "    keep",
        "  - drop",
        "  ⋮",
        "  + more",
        "gone.md (deleted)",
      ].join("\n"),
    );
    expect(approvalDetail({ path: "empty.md", contents: "" })).toBe('{"path":"empty.md","contents":""}');
  });
});

describe("diffs of finished edits", () => {
  it("reads a unified diff by its hunk counts, numbering each line as the file does", () => {
    const diff = [
      "--- a/notes.md",
      "+++ b/notes.md",
      "@@ -3,2 +3,2 @@",
      "-- old item",
      "+- new item",
      " end",
      "@@ -40 +40,0 @@",
      "-last",
      "\\ No newline at end of file",
    ].join("\n");
    expect(unifiedDiffFiles(diff)).toEqual([
      {
        path: "notes.md",
        hunks: [
          [
            { kind: "del", text: "- old item", number: 3 },
            { kind: "add", text: "- new item", number: 3 },
            { kind: "context", text: "end", number: 4 },
          ],
          [{ kind: "del", text: "last", number: 40 }],
        ],
      },
    ]);
    expect(diffText(unifiedDiffFiles(diff), 20)).toBe(
      " 3 - - old item\n 3 + - new item\n 4   end\n   ⋮\n40 - last",
    );
    expect(diffText(unifiedDiffFiles(diff), 2)).toBe("3 - - old item\n3 + - new item\n… 2 more lines");
  });

  it("takes an added file of a patch from the patch, and an edit's lines from its arguments when the output has no diff", () => {
    const patch = "*** Begin Patch\n*** Add File: a.md\n+hello\n*** End Patch";
    expect(completedDiff("apply_patch", { patch }, "Applied the patch to 1 file:\nA a.md (+1 -0)")).toEqual([
      { path: "a.md", hunks: [[{ kind: "add", text: "hello", number: 1 }]] },
    ]);
    expect(
      completedDiff("edit_file", { path: "a.md", old_string: "x", new_string: "y" }, "Edited a.md."),
    ).toEqual([
      {
        path: "a.md",
        hunks: [
          [
            { kind: "del", text: "x" },
            { kind: "add", text: "y" },
          ],
        ],
      },
    ]);
    expect(
      completedDiff("read_file", { path: "a.md" }, "--- a/a.md\n+++ b/a.md\n@@ -1 +1 @@\n-x\n+y"),
    ).toEqual([]);
  });

  it("leaves a command's report headers out of its output", () => {
    expect(commandOutput("Exit code: 0\n--- stdout ---\nok\n--- stderr ---\nwarn")).toBe("ok\nwarn");
    expect(commandOutput("Exit code: 3\n(no output)")).toBe("");
  });
});

describe("syntax highlighting", () => {
  const k = (text: string): CodeToken => ({ text, kind: "keyword" });
  const s = (text: string): CodeToken => ({ text, kind: "string" });
  const c = (text: string): CodeToken => ({ text, kind: "comment" });
  const n = (text: string): CodeToken => ({ text, kind: "number" });
  const p = (text: string): CodeToken => ({ text, kind: "plain" });
  const cases: [language: string | undefined, code: string, lines: CodeToken[][]][] = [
    ["ts", 'const a = "x"; // note', [[k("const"), p(" a = "), s('"x"'), p("; "), c("// note")]]],
    [
      "ts",
      "let t = `a\nb`;",
      [
        [k("let"), p(" t = "), s("`a")],
        [s("b`"), p(";")],
      ],
    ],
    ["ts", "/* one\ntwo */ x1 = 0x1F;", [[c("/* one")], [c("two */"), p(" x1 = "), n("0x1F"), p(";")]]],
    ["tsx", "return <A b={1} />;", [[k("return"), p(" <A b={"), n("1"), p("} />;")]]],
    [
      "python",
      'def f(x):  # why\n    return f"{x}" if x else None',
      [
        [k("def"), p(" f(x):  "), c("# why")],
        [
          p("    "),
          k("return"),
          p(" "),
          s('f"{x}"'),
          p(" "),
          k("if"),
          p(" x "),
          k("else"),
          p(" "),
          k("None"),
        ],
      ],
    ],
    ["py", '"""doc\nstring"""', [[s('"""doc')], [s('string"""')]]],
    [
      "go",
      "func main() { fmt.Println(`raw`, 'r', 3.5) }",
      [[k("func"), p(" main() { fmt.Println("), s("`raw`"), p(", "), s("'r'"), p(", "), n("3.5"), p(") }")]],
    ],
    [
      "rust",
      "fn f<'a>(x: &'a str) -> u8 { let c = 'c'; 2u8 }",
      [
        [
          k("fn"),
          p(" f<'a>(x: &'a str) -> u8 { "),
          k("let"),
          p(" c = "),
          s("'c'"),
          p("; "),
          n("2u8"),
          p(" }"),
        ],
      ],
    ],
    [
      "json",
      '{"a": [1.5, true, null]}',
      [[p("{"), s('"a"'), p(": ["), n("1.5"), p(", "), k("true"), p(", "), k("null"), p("]}")]],
    ],
    [
      "bash",
      'if [ -n "$A" ]; then echo a#b # done\nfi',
      [[k("if"), p(" [ -n "), s('"$A"'), p(" ]; "), k("then"), p(" echo a#b "), c("# done")], [k("fi")]],
    ],
    [
      "css",
      "a { color: #fff; margin: -2px !important } /* x */",
      [
        [
          p("a { color: "),
          n("#fff"),
          p("; margin: -"),
          n("2px"),
          p(" "),
          k("!important"),
          p(" } "),
          c("/* x */"),
        ],
      ],
    ],
    ["ts", 'const s = "unclosed', [[k("const"), p(" s = "), s('"unclosed')]]],
    [undefined, "const a = 1;\n\nb", [[p("const a = 1;")], [], [p("b")]]],
  ];
  for (const [language, code, lines] of cases)
    it(`${language ?? "plain"}: ${JSON.stringify(code)}`, () => {
      expect(highlightCode(code, language)).toEqual(lines);
    });

  it("knows a language by its fence's first word or its file's extension, and no other", () => {
    expect(fenceLanguage("TypeScript title=a.ts")).toBe("typescript");
    expect(fenceLanguage("cobol")).toBeUndefined();
    expect(fenceLanguage("constructor")).toBeUndefined();
    expect(pathLanguage("src/app.test.tsx")).toBe("tsx");
    expect(pathLanguage("Makefile")).toBeUndefined();
  });
});

describe("markdown in the terminal", () => {
  it("turns an answer into headings, items, code and marked spans", () => {
    expect(
      markdownBlocks("# Plan\n\n- read **a.ts**\n  1. then `b`\n```ts\nconst x = 1;\n```\nDone *now*."),
    ).toEqual([
      { kind: "heading", spans: [{ text: "Plan" }] },
      { kind: "blank" },
      { kind: "item", depth: 0, marker: "•", spans: [{ text: "read " }, { text: "a.ts", bold: true }] },
      { kind: "item", depth: 1, marker: "1.", spans: [{ text: "then " }, { text: "b", code: true }] },
      { kind: "code", text: "const x = 1;", language: "ts" },
      { kind: "paragraph", spans: [{ text: "Done " }, { text: "now", italic: true }, { text: "." }] },
    ]);
  });

  it("shows a fence still streaming as code, and leaves unclosed marks as typed", () => {
    expect(markdownBlocks("```\nhalf")).toEqual([{ kind: "code", text: "half" }]);
    expect(inlineSpans("2 * 3 and **open")).toEqual([{ text: "2 * 3 and **open" }]);
  });

  it("reads a pipe table with its alignment, its rows padded to the header's cells", () => {
    expect(
      markdownBlocks("| File | Lines |\n|:-----|------:|\n| `a.ts` | 12 |\n| b \\| c |\n\nAfter"),
    ).toEqual([
      {
        kind: "table",
        header: [[{ text: "File" }], [{ text: "Lines" }]],
        align: ["left", "right"],
        rows: [
          [[{ text: "a.ts", code: true }], [{ text: "12" }]],
          [[{ text: "b | c" }], []],
        ],
      },
      { kind: "blank" },
      { kind: "paragraph", spans: [{ text: "After" }] },
    ]);
  });

  it("keeps a table as text until its delimiter row has every column", () => {
    expect(markdownBlocks("| a | b |\n|---").map((block) => block.kind)).toEqual(["paragraph", "paragraph"]);
    expect(markdownBlocks("a | b\n--- | :-:").map((block) => block.kind)).toEqual(["table"]);
  });
});

describe("slash command completion", () => {
  const names = commandNames(["explain", "explore"]);
  const cases: [typed: string, line: string, fits: string[]][] = [
    ["/he", "/help ", ["help"]],
    ["/ex", "/ex", ["exit", "explain", "explore"]],
    ["/expla", "/explain ", ["explain"]],
    ["/zz", "/zz", []],
    ["/help me", "/help me", []],
  ];
  for (const [typed, line, fits] of cases)
    it(JSON.stringify(typed), () => {
      expect(completeCommand(typed, names)).toEqual({ line, fits });
    });
});
