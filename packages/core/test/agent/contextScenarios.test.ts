import type { LatheEvent } from "@lathe/protocol";
import {
  type FakeTurn,
  type ScriptedSession,
  type ScriptedSessionOptions,
  startScriptedSession,
} from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

let scripted: ScriptedSession | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

async function start(turns: FakeTurn[], options: ScriptedSessionOptions = {}) {
  scripted = await startScriptedSession(turns, options);
  return scripted;
}

interface OpenAiBody {
  messages: { role: string; content?: unknown }[];
  tools?: { function: { name: string } }[];
}

const bodies = () => scripted!.server.requests.map((request) => request.body as OpenAiBody);
const systemOf = (body: OpenAiBody) => String(body.messages[0]?.content);
const loopWarnings = (events: LatheEvent[]) =>
  events.flatMap((event) => (event.type === "loop_warning" ? [`${event.kind}:${event.count}`] : []));

describe("loop detection in a run", () => {
  it("warns at the fourth identical call and stops the run at the sixth", async () => {
    const same = { tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] };
    const { session, events } = await start([same, same, same, same, same, same, { text: "never asked" }], {
      files: { "a.txt": "alpha\n" },
    });
    const result = await session.send("What is in a.txt?");
    expect(result.status).toBe("loop_detected");
    expect(result.error?.code).toBe("E_LOOP_DETECTED");
    // Warned at the fourth and fifth, stopped at the sixth.
    expect(loopWarnings(events)).toEqual(["identical_calls:4", "identical_calls:5", "identical_calls:6"]);
    const requests = bodies();
    expect(requests).toHaveLength(6);
    // The model hears the warning with the fourth result, before its fifth request.
    const warning = "You have called read_file 4 times in a row with the same arguments.";
    expect(JSON.stringify(requests[3]!.messages)).not.toContain(warning);
    expect(JSON.stringify(requests[4]!.messages)).toContain(warning);
    expect(session.runState).toBe("idle");
  });

  it("does not cry wolf at different ranges of one file or a test-edit-test cycle", async () => {
    const read = (offset: number) => ({
      tool_calls: [{ name: "read_file", arguments: { path: "a.txt", offset, limit: 1 } }],
    });
    const test = { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "grep -c beta a.txt" } }] };
    const edit = (n: number) => ({
      tool_calls: [
        { name: "edit_file", arguments: { path: "a.txt", old_string: `line ${n}`, new_string: `beta ${n}` } },
      ],
    });
    const { session, events } = await start(
      [
        read(1),
        read(2),
        read(3),
        test,
        edit(1),
        test,
        edit(2),
        test,
        edit(3),
        test,
        edit(4),
        test,
        { text: "done" },
      ],
      { files: { "a.txt": "line 1\nline 2\nline 3\nline 4\n" } },
    );
    const result = await session.send("Replace each line n with beta n, checking after each.");
    expect(result.status).toBe("completed");
    expect(loopWarnings(events)).toEqual([]);
  });

  it("hints after five reads in a row before any change", async () => {
    const read = (path: string) => ({ tool_calls: [{ name: "read_file", arguments: { path } }] });
    const files = Object.fromEntries(["a", "b", "c", "d", "e"].map((name) => [`${name}.txt`, `${name}\n`]));
    const { session, events } = await start(
      [read("a.txt"), read("b.txt"), read("c.txt"), read("d.txt"), read("e.txt"), { text: "read them all" }],
      { files },
    );
    await session.send("Look around.");
    expect(loopWarnings(events)).toEqual(["read_streak:5"]);
  });
});

describe("project rules in a run", () => {
  it("attaches a glob rule only once a matching file is in context, and a requested rule only after fetch_rules", async () => {
    const { session } = await start(
      [
        { tool_calls: [{ name: "list_directory", arguments: { path: "." } }] },
        { tool_calls: [{ name: "read_file", arguments: { path: "src/a.ts" } }] },
        { tool_calls: [{ name: "fetch_rules", arguments: { names: ["release"] } }] },
        { text: "Tabs it is, and releases are tagged vX.Y.Z." },
      ],
      {
        files: {
          "src/a.ts": "export const a = 1;\n",
          ".cursor/rules/ts-style.mdc":
            "---\ndescription: TypeScript style\nglobs: src/**/*.ts\n---\nIndent TypeScript with tabs.\n",
          ".lathe/rules/release.md": "---\ndescription: How to cut a release\n---\nTag releases as vX.Y.Z.\n",
        },
      },
    );
    const result = await session.send("How should I format and release this?");
    expect(result.status).toBe("completed");
    const requests = bodies();
    const systems = requests.map(systemOf);
    expect(systems.map((system) => system.includes("Indent TypeScript with tabs."))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    // The requested rule: listed by its description from the start, its text only once fetched
    // (in fetch_rules' result, and attached from then on).
    expect(systems[0]).toContain("How to cut a release");
    expect(systems.map((system) => system.includes("Tag releases as vX.Y.Z."))).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(JSON.stringify(requests[2]!.messages)).not.toContain("Tag releases as vX.Y.Z.");
    expect(JSON.stringify(requests[3]!.messages)).toContain("Tag releases as vX.Y.Z.");
    expect(requests[0]!.tools?.map((tool) => tool.function.name)).toContain("fetch_rules");
  });

  it("does not offer fetch_rules when there is nothing to fetch", async () => {
    const { session } = await start([{ text: "hi" }]);
    await session.send("hello");
    expect(bodies()[0]!.tools?.map((tool) => tool.function.name)).not.toContain("fetch_rules");
  });
});

describe("an answer that repeats itself", () => {
  it("is cut off, kept up to the cut, and the model is told why", async () => {
    const row = "The same sentence keeps coming back again and again. ";
    const { session, events } = await start([
      { text: `Here goes: ${row.repeat(40)}` },
      { text: "Sorry, done." },
    ]);
    const result = await session.send("Say something.");
    expect(result.status).toBe("completed");
    expect(result.final).toBe("Sorry, done.");
    expect(loopWarnings(events)).toEqual(["repeated_content:10"]);
    const second = JSON.stringify(bodies()[1]!.messages);
    expect(second).toContain("Here goes:");
    expect(second.split(row.trim()).length - 1).toBeLessThan(40);
  });
});

describe("a provider that says the prompt is too long", () => {
  it("gets one retry after a forced compaction", async () => {
    const { session } = await start([
      { error: { status: 400, message: "This model's maximum context length is 8192 tokens." } },
      { text: "Answered after compaction." },
    ]);
    const result = await session.send("hello");
    expect(result.status).toBe("completed");
    expect(result.final).toBe("Answered after compaction.");
    expect(bodies()).toHaveLength(2);
  });

  it("fails with E_CONTEXT_OVERFLOW when the retry overflows too", async () => {
    const overflow = {
      error: { status: 400, message: "This model's maximum context length is 8192 tokens." },
    };
    const { session } = await start([overflow, overflow, { text: "never" }]);
    const result = await session.send("hello");
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("E_CONTEXT_OVERFLOW");
    expect(bodies()).toHaveLength(2);
  });
});
