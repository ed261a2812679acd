import { stripVTControlCharacters } from "node:util";
import type { ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";
import type { FileDiff } from "../src/terminalUi/diffLines.js";
import type { CallItem, RunningCall } from "../src/terminalUi/transcriptModel.js";

// Colours are part of what is checked: the terminal's colour support is read when Ink loads, and
// a test's output is no terminal, so it is forced before the components are imported.
process.env.FORCE_COLOR = "1";
const { render } = await import("ink-testing-library");
const { MarkdownText } = await import("../src/terminalUi/MarkdownText.js");
const { LiveTurn, TranscriptItemView } = await import("../src/terminalUi/TranscriptView.js");
const { DiffView } = await import("../src/terminalUi/DiffView.js");
const { ApprovalDetailView } = await import("../src/terminalUi/ApprovalDetailView.js");
const { approvalDiff } = await import("../src/terminalUi/approvalDetail.js");
const { ReasoningKey } = await import("../src/terminalUi/ReasoningKey.js");
const { TerminalState } = await import("../src/terminalUi/terminalState.js");
const { emptyTranscript } = await import("../src/terminalUi/transcriptModel.js");

/** The last frame drawn, with its colour codes. */
function frameOf(node: ReactElement): string {
  const drawn = render(node);
  const frame = drawn.lastFrame() ?? "";
  drawn.unmount();
  return frame;
}

/** The last frame drawn, as the text a person reads. */
const textOf = (node: ReactElement) => stripVTControlCharacters(frameOf(node));

const red = (text: string) => `\u001b[31m${text}`;
const green = (text: string) => `\u001b[32m${text}`;

const edit: FileDiff = {
  path: "src/a.ts",
  hunks: [
    [
      { kind: "context", text: "const x = 0;", number: 9 },
      { kind: "del", text: "const a = 1;", number: 10 },
      { kind: "add", text: "const a = 2;", number: 10 },
    ],
    [
      { kind: "add", text: "// more", number: 120 },
      { kind: "add", text: "// and more", number: 121 },
    ],
  ],
};

describe("markdown in the terminal UI", () => {
  it("draws headings, items, code set apart and tables in aligned columns", () => {
    const answer = [
      "## Plan",
      "- read **a.ts**",
      "```py",
      "x = 1",
      "",
      "y = 2",
      "```",
      "| File | Lines |",
      "|:--|--:|",
      "| `a.ts` | 12 |",
      "| b.ts | 7 |",
    ].join("\n");
    expect(textOf(<MarkdownText text={answer} />)).toBe(
      [
        "Plan",
        "• read a.ts",
        "  x = 1",
        "",
        "  y = 2",
        "File │ Lines",
        "─────┼──────",
        "a.ts │    12",
        "b.ts │     7",
      ].join("\n"),
    );
  });

  it("colours a fenced block by its language, and leaves an unknown one plain", () => {
    expect(frameOf(<MarkdownText text={"```ts\nconst a = 'x'; // why\n```"} />)).toBe(
      "  \u001b[35mconst\u001b[39m a = \u001b[33m'x'\u001b[39m; \u001b[90m// why\u001b[39m",
    );
    expect(frameOf(<MarkdownText text={"```cobol\nconst a = 'x';\n```"} />)).toBe("  const a = 'x';");
  });
});

describe("the diff view", () => {
  it("numbers each line, marks removed lines red and added ones green, and counts what it leaves out", () => {
    const drawn = <DiffView files={[edit]} maxRows={5} />;
    expect(textOf(drawn)).toBe(
      [
        "  9   const x = 0;",
        " 10 - const a = 1;",
        " 10 + const a = 2;",
        "    ⋮",
        "120 + // more",
        "… 1 more line",
      ].join("\n"),
    );
    const frame = frameOf(drawn);
    expect(frame).toContain(red(" 10 - "));
    expect(frame).toContain(green(" 10 + "));
    // The code keeps its own colours inside the line's: the keyword, then the line's red again.
    expect(frame).toContain(`${red(" 10 - ")}\u001b[35mconst${red(" a = ")}`);
  });

  it("names each file when a change has several, and says what became of a deleted one", () => {
    const files: FileDiff[] = [
      { path: "new.md", hunks: [[{ kind: "add", text: "# New", number: 1 }]] },
      { path: "gone.md", hunks: [], note: "deleted" },
    ];
    expect(textOf(<DiffView files={files} maxRows={10} />)).toBe("new.md\n1 + # New\ngone.md (deleted)");
  });

  it("shows an approval's edit as a coloured diff, and a command as typed", () => {
    const args = { path: "a.ts", old_string: "let a = 1;", new_string: "let a = 2;" };
    const frame = frameOf(<ApprovalDetailView diff={approvalDiff(args)} detail="unused" />);
    expect(stripVTControlCharacters(frame)).toBe("- let a = 1;\n+ let a = 2;");
    expect(frame).toContain(red("- "));
    expect(
      textOf(<ApprovalDetailView diff={approvalDiff({ command: "npm test" })} detail="$ npm test" />),
    ).toBe("$ npm test");
  });
});

describe("transcript items", () => {
  it("shows a failed command red, with its step, time, exit code and last lines", () => {
    const item: CallItem = {
      kind: "call",
      summary: "Running npm test",
      outcome: "failed",
      step: 2,
      seconds: 2.5,
      exitCode: 1,
      detail: "1 failing\nnpm ERR! Test failed.",
    };
    const frame = frameOf(<TranscriptItemView item={item} />);
    expect(stripVTControlCharacters(frame)).toBe(
      "✗ Running npm test · step 2 · 2.5 s · exit 1\n  1 failing\n  npm ERR! Test failed.",
    );
    expect(frame).toContain(red("✗"));
    expect(frame).toContain(red(" · exit 1"));
  });

  it("shows a command that passed with its last lines dim and no exit code", () => {
    const item: CallItem = {
      kind: "call",
      summary: "Running npm test",
      outcome: "done",
      step: 1,
      seconds: 0.25,
      exitCode: 0,
      detail: "7 passing",
    };
    expect(textOf(<TranscriptItemView item={item} />)).toBe(
      "✓ Running npm test · step 1 · 250 ms\n  7 passing",
    );
  });

  it("shows a finished edit with its diff under it", () => {
    const item: CallItem = {
      kind: "call",
      summary: "Editing src/a.ts (replacing ~1 line)",
      outcome: "done",
      step: 3,
      seconds: 0.004,
      diff: [edit],
    };
    expect(textOf(<TranscriptItemView item={item} />)).toBe(
      [
        "✓ Editing src/a.ts (replacing ~1 line) · step 3 · 4 ms",
        "    9   const x = 0;",
        "   10 - const a = 1;",
        "   10 + const a = 2;",
        "      ⋮",
        "  120 + // more",
        "  121 + // and more",
      ].join("\n"),
    );
  });

  it("shows how a sub-agent ended under its task call", () => {
    const item: CallItem = {
      kind: "call",
      summary: "Sub-agent (explore): Find the config",
      outcome: "done",
      step: 1,
      seconds: 12.3,
      subagents: [
        {
          id: "s1",
          agent: "explore",
          description: "Find the config",
          round: 3,
          steps: [
            { summary: "Reading a.ts", outcome: "done" },
            { summary: "Reading b.ts", outcome: "done" },
          ],
          status: "completed",
          seconds: 12.1,
        },
      ],
    };
    expect(textOf(<TranscriptItemView item={item} />)).toBe(
      "✓ Sub-agent (explore): Find the config · step 1 · 12.3 s\n  ↳ explore completed · 3 rounds · 2 tool calls · 12.1 s",
    );
  });

  it("keeps finished thinking to one dim line, and shows it whole when asked", () => {
    const thought = { kind: "reasoning", text: "Look at a.ts.\nThen b.ts.", seconds: 3.4 } as const;
    const frame = frameOf(<TranscriptItemView item={thought} />);
    expect(frame).toBe("\u001b[2m✻ Thought for 3 s · 2 lines · Ctrl+O to show\u001b[22m");
    expect(textOf(<TranscriptItemView item={{ ...thought, expanded: true }} />)).toBe(
      "✻ Thought for 3 s:\n  Look at a.ts.\n  Then b.ts.",
    );
  });

  it("shows a notice as a dim line", () => {
    expect(frameOf(<TranscriptItemView item={{ kind: "notice", level: "info", text: "Stopped." }} />)).toBe(
      "\u001b[90mStopped.\u001b[39m",
    );
  });
});

describe("the live turn", () => {
  it("streams thinking dimmed, and nests a running sub-agent's progress under its call", () => {
    const call: RunningCall = {
      callId: "t1",
      name: "task",
      summary: "Sub-agent (explore): Find the config",
      arguments: {},
      output: "",
      step: 1,
      subagents: [
        {
          id: "s1",
          agent: "explore",
          description: "Find the config",
          round: 2,
          running: "read_file",
          steps: ["a", "b", "c", "d"].map((name) => ({
            summary: `Reading ${name}.ts`,
            outcome: "done" as const,
          })),
        },
      ],
    };
    const transcript = {
      ...emptyTranscript(),
      reasoning: "one\ntwo\nthree\nfour",
      calls: [call],
      todos: [
        { id: "1", content: "Find it", status: "in_progress" as const },
        { id: "2", content: "Fix it", status: "pending" as const },
      ],
    };
    const frame = frameOf(<LiveTurn transcript={transcript} />);
    expect(stripVTControlCharacters(frame)).toBe(
      [
        "✻ Thinking…",
        "  two",
        "  three",
        "  four",
        "⋯ Sub-agent (explore): Find the config · step 1",
        "  ↳ explore: Find the config · round 2 · running read_file",
        "    ✓ Reading b.ts",
        "    ✓ Reading c.ts",
        "    ✓ Reading d.ts",
        "▶ Find it",
        "☐ Fix it",
      ].join("\n"),
    );
    expect(frame).toContain("\u001b[2mfour");
  });

  it("says a call waits for approval, and shows the last lines a command printed", () => {
    const call: RunningCall = {
      callId: "c1",
      name: "run_terminal_cmd",
      summary: "Running make",
      arguments: { command: "make" },
      output: "1\n2\n3\n4\n5\n6\n",
      step: 4,
      state: "awaiting_approval",
      subagents: [],
    };
    expect(textOf(<LiveTurn transcript={{ ...emptyTranscript(), calls: [call] }} />)).toBe(
      "⋯ Running make · step 4 · waiting for approval\n  2\n  3\n  4\n  5\n  6",
    );
  });
});

describe("Ctrl+O", () => {
  it("adds the latest thinking, whole, to the transcript", async () => {
    const state = new TerminalState();
    const thought = { kind: "reasoning", text: "Look at a.ts.", seconds: 2 } as const;
    state.update((view) => ({ ...view, transcript: { ...emptyTranscript(), items: [thought] } }));
    const drawn = render(<ReasoningKey state={state} />);
    // Pressed until the key handler is listening: pressing again shows nothing new.
    await vi.waitFor(() => {
      drawn.stdin.write("\u000f");
      expect(state.current().transcript.items).toEqual([thought, { ...thought, expanded: true }]);
    });
    drawn.unmount();
  });
});
