import { existsSync } from "node:fs";
import { join } from "node:path";
import type { EventOf, LatheEvent } from "@lathe/protocol";
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

/** A read-only scout on its own scripted model, so the parent's script stays in order. */
const scoutAgent = {
  ".lathe/agents/scout.md":
    "---\nname: scout\ndescription: Reads the code and reports\nreadonly: true\nmodel: openai:scout-model\n---\nReport what you find in one line.\n",
};

async function start(turns: FakeTurn[], options: ScriptedSessionOptions) {
  scripted = await startScriptedSession(turns, options);
  return scripted;
}

const ofType = <T extends LatheEvent["type"]>(events: LatheEvent[], type: T) =>
  events.filter((event): event is EventOf<T> => event.type === type);

const task = (description: string, prompt: string) => ({
  name: "task",
  arguments: { agent: "scout", description, prompt },
});

describe("sub-agents", () => {
  it("runs two read-only explorations at once and hands both reports back", async () => {
    const { session, events, agentModelServer, server } = await start(
      [
        {
          tool_calls: [
            task("Find the config", "Where is the config read?"),
            task("Find the tests", "Where are the tests?"),
          ],
        },
        { text: "Config in cfg.ts, tests in test/." },
      ],
      {
        files: { ...scoutAgent, "cfg.ts": "export const port = 1;\n" },
        agentModelTurns: [
          { text: "Report: one place found.", chunk_delay_ms: 40 },
          { text: "Report: another place found.", chunk_delay_ms: 40 },
        ],
      },
    );
    const result = await session.send("Explore the config and the tests.");
    expect(result.status).toBe("completed");
    const starts = ofType(events, "subagent_start");
    const finishes = ofType(events, "subagent_finish");
    expect(starts.map((event) => event.agent)).toEqual(["scout", "scout"]);
    expect(finishes.map((event) => event.status)).toEqual(["completed", "completed"]);
    // Both were running before either finished.
    expect(Math.max(...starts.map((event) => event.seq))).toBeLessThan(
      Math.min(...finishes.map((event) => event.seq)),
    );
    const [first, second] = agentModelServer!.requests;
    expect(second!.receivedAt).toBeLessThan(first!.respondedAt!);
    // The sub-agents saw their brief, not the parent's conversation.
    expect(JSON.stringify(first!.body)).not.toContain("Explore the config and the tests.");
    const parentFollowUp = JSON.stringify(server.requests[1]!.body);
    expect(parentFollowUp).toContain("Report: one place found.");
    expect(parentFollowUp).toContain("Report: another place found.");
  });

  it("refuses a read-only sub-agent's attempt to write", async () => {
    const { session, events, projectRoot } = await start(
      [{ tool_calls: [task("Try a write", "Create notes.txt")] }, { text: "It could not write." }],
      {
        files: scoutAgent,
        agentModelTurns: [
          { tool_calls: [{ name: "write_file", arguments: { path: "notes.txt", contents: "x" } }] },
          { text: "I cannot write files." },
        ],
      },
    );
    await session.send("Delegate a write.");
    expect(existsSync(join(projectRoot, "notes.txt"))).toBe(false);
    const tools = ofType(events, "subagent_progress").filter((event) => event.kind === "tool");
    expect(tools.map((event) => `${event.tool}:${event.toolState}`)).toEqual(["write_file:error"]);
    // Its card can show its own steps: the refused call with its arguments and why, then its answer.
    expect(ofType(events, "subagent_step").map((event) => event.step)).toEqual([
      {
        kind: "tool",
        callId: expect.any(String),
        name: "write_file",
        arguments: { path: "notes.txt", contents: "x" },
        state: "failed",
        output: expect.stringMatching(/^E_[A-Z_]+: /),
      },
      { kind: "text", text: "I cannot write files." },
    ]);
    const toolsOffered = (
      scripted!.agentModelServer!.requests[0]!.body as { tools: { function: { name: string } }[] }
    ).tools;
    expect(toolsOffered.map((tool) => tool.function.name)).not.toContain("write_file");
  });

  it("returns what a sub-agent had when it runs out of time, and the parent goes on", async () => {
    const { session, events, server } = await start(
      [{ tool_calls: [task("Slow search", "Search slowly")] }, { text: "Went on with the partial report." }],
      {
        files: { ...scoutAgent, "a.txt": "alpha\n" },
        subagents: { timeoutMs: 600 },
        agentModelTurns: [
          {
            text: "Partial finding: alpha is in a.txt.",
            tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }],
          },
          { text: "never", hang_ms: 10_000 },
        ],
      },
    );
    const result = await session.send("Search, but do not wait forever.");
    expect(result.status).toBe("completed");
    expect(ofType(events, "subagent_finish").map((event) => event.status)).toEqual(["timeout"]);
    const followUp = JSON.stringify(server.requests[1]!.body);
    expect(followUp).toContain("ran out of time");
    expect(followUp).toContain("Partial finding: alpha is in a.txt.");
  });

  it("does not offer task inside a sub-agent at the last level", async () => {
    const { session } = await start([{ tool_calls: [task("Look", "Look around")] }, { text: "done" }], {
      files: scoutAgent,
      subagents: { maxDepth: 1 },
      agentModelTurns: [{ text: "looked" }],
    });
    await session.send("Delegate.");
    const offered = (
      scripted!.agentModelServer!.requests[0]!.body as { tools: { function: { name: string } }[] }
    ).tools;
    expect(offered.map((tool) => tool.function.name)).not.toContain("task");
  });
});
