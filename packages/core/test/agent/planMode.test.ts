import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventOf, LatheEvent } from "@lathe/protocol";
import { type FakeTurn, type ScriptedSession, startScriptedSession } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

let scripted: ScriptedSession | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

const greet = `export function greet(name) {\n  return \`Hello, \${name}!\`;\n}\n`;
const task = "Add a farewell function to greet.js";
const answer =
  "## Steps\n\n1. Add `farewell(name)` beside `greet` in greet.js.\n2. Export it.\n3. Add a test for it.\n4. Mention it in the README.";
const steps = ["Add farewell(name) to greet.js", "Export farewell", "Test farewell", "Document farewell"];

/** Reads the code, writes a four-step plan (all open), answers with the plan. */
const planningTurns = (): FakeTurn[] => [
  { tool_calls: [{ name: "read_file", arguments: { path: "greet.js" } }] },
  {
    tool_calls: [
      {
        name: "todo_write",
        arguments: {
          todos: steps.map((content, index) => ({ id: String(index + 1), content, status: "pending" })),
        },
      },
    ],
  },
  { text: answer },
];

const expectedPlan = `# Plan: Add a farewell function to greet.js

${answer}

## Todos

- [ ] Add farewell(name) to greet.js
- [ ] Export farewell
- [ ] Test farewell
- [ ] Document farewell
`;

/** The local calendar day, as the engine names plans (either side of a run, in case midnight passes). */
function today(): string {
  const now = new Date();
  const two = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

const plansIn = (root: string) =>
  existsSync(join(root, ".lathe/plans")) ? readdirSync(join(root, ".lathe/plans")).sort() : [];

const savedEvents = (events: LatheEvent[]) =>
  events.filter((event): event is EventOf<"plan_saved"> => event.type === "plan_saved");

describe("plan mode saves its plan", () => {
  it("writes the answer and the todo list under .lathe/plans and announces it before run_complete", async () => {
    scripted = await startScriptedSession(planningTurns(), { mode: "plan", files: { "greet.js": greet } });
    const before = today();
    const result = await scripted.session.send(task);
    const after = today();
    expect(result.status).toBe("completed");
    // Open todos are the plan, not unfinished work: no nudge, no fourth request, no notice.
    expect(scripted.server.requests).toHaveLength(3);
    expect(scripted.events.filter((event) => event.type === "notice")).toEqual([]);

    const [name] = plansIn(scripted.projectRoot);
    expect(plansIn(scripted.projectRoot)).toHaveLength(1);
    expect([
      `${before}-add-a-farewell-function-to-greet.md`,
      `${after}-add-a-farewell-function-to-greet.md`,
    ]).toContain(name);
    expect(readFileSync(join(scripted.projectRoot, ".lathe/plans", name!), "utf8")).toBe(expectedPlan);
    expect(readFileSync(join(scripted.projectRoot, "greet.js"), "utf8")).toBe(greet);

    const saved = savedEvents(scripted.events);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      path: `.lathe/plans/${name}`,
      title: task,
      prompt: `Carry out this plan (saved in .lathe/plans/${name}). Work through its steps in order, keep the todo list up to date as you go, and check the result when you are done.\n\n${expectedPlan}`,
    });
    const types = scripted.events.map((event) => event.type);
    expect(types.indexOf("plan_saved")).toBeLessThan(types.indexOf("run_complete"));
    expect(types.indexOf("plan_saved")).toBeGreaterThan(types.lastIndexOf("turn_end"));
  });

  it("never overwrites an earlier plan of the same task", async () => {
    scripted = await startScriptedSession([{ text: "First plan." }, { text: "Second plan." }], {
      mode: "plan",
    });
    await scripted.session.send("Refactor the parser");
    await scripted.session.send("Refactor the parser");
    const names = plansIn(scripted.projectRoot);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^\d{4}-\d{2}-\d{2}-refactor-the-parser-2\.md$/);
    expect(names[1]).toMatch(/^\d{4}-\d{2}-\d{2}-refactor-the-parser\.md$/);
    expect(readFileSync(join(scripted.projectRoot, ".lathe/plans", names[1]!), "utf8")).toBe(
      "# Plan: Refactor the parser\n\nFirst plan.\n",
    );
    expect(readFileSync(join(scripted.projectRoot, ".lathe/plans", names[0]!), "utf8")).toBe(
      "# Plan: Refactor the parser\n\nSecond plan.\n",
    );
  });

  it("still refuses every model write: the plan file is the engine's one write", async () => {
    scripted = await startScriptedSession(
      [
        {
          tool_calls: [
            { name: "write_file", arguments: { path: "farewell.js", contents: "export const bye = 1;\n" } },
            { name: "write_file", arguments: { path: ".lathe/plans/mine.md", contents: "# mine\n" } },
            { name: "edit_file", arguments: { path: "greet.js", old_string: "Hello", new_string: "Bye" } },
            { name: "run_terminal_cmd", arguments: { command: "touch marker" } },
          ],
        },
        { text: "Plan: add farewell.js." },
      ],
      { mode: "plan", files: { "greet.js": greet } },
    );
    const result = await scripted.session.send("Plan the farewell");
    expect(result.status).toBe("completed");
    const refused = scripted.events.filter(
      (event) => event.type === "tool_failed" || event.type === "tool_blocked",
    );
    expect(refused.map((event) => (event as EventOf<"tool_failed">).error.code)).toEqual([
      "E_TOOL_NOT_FOUND",
      "E_TOOL_NOT_FOUND",
      "E_TOOL_NOT_FOUND",
      "E_TOOL_NOT_FOUND",
    ]);
    expect(existsSync(join(scripted.projectRoot, "farewell.js"))).toBe(false);
    expect(existsSync(join(scripted.projectRoot, "marker"))).toBe(false);
    expect(readFileSync(join(scripted.projectRoot, "greet.js"), "utf8")).toBe(greet);
    expect(plansIn(scripted.projectRoot)).toEqual([expect.stringMatching(/-plan-the-farewell\.md$/)]);
  });

  it("saves nothing in agent mode, nor for a plan-mode run without an answer", async () => {
    scripted = await startScriptedSession([{ text: "Done." }]);
    await scripted.session.send("Say done");
    expect(savedEvents(scripted.events)).toEqual([]);
    expect(existsSync(join(scripted.projectRoot, ".lathe"))).toBe(false);
    await scripted.close();

    scripted = await startScriptedSession(
      [{ tool_calls: [{ name: "read_file", arguments: { path: "a" } }] }, { text: "" }],
      {
        mode: "plan",
        files: { a: "a\n" },
      },
    );
    await scripted.session.send("Plan nothing");
    expect(savedEvents(scripted.events)).toEqual([]);
    expect(existsSync(join(scripted.projectRoot, ".lathe"))).toBe(false);
  });

  it("refuses a .lathe/plans that leads out of the project: a coded notice, the run still completes", async () => {
    const outside = mkdtempSync(join(tmpdir(), "lathe-outside-"));
    const root = mkdtempSync(join(tmpdir(), "lathe-project-"));
    mkdirSync(join(root, ".lathe"));
    symlinkSync(outside, join(root, ".lathe/plans"));
    scripted = await startScriptedSession([{ text: "The plan." }], { mode: "plan", projectRoot: root });
    const result = await scripted.session.send("Plan it");
    expect(result.status).toBe("completed");
    expect(result.final).toBe("The plan.");
    expect(readdirSync(outside)).toEqual([]);
    expect(savedEvents(scripted.events)).toEqual([]);
    const notices = scripted.events.filter((event): event is EventOf<"notice"> => event.type === "notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: "warning", code: "E_PATH_TRAVERSAL" });
    expect(notices[0]!.message).toContain("The plan was not saved:");
  });

  it("reports a plan that cannot be written as a notice with a code", async () => {
    scripted = await startScriptedSession([{ text: "The plan." }], {
      mode: "plan",
      files: { ".lathe": "not a folder\n" },
    });
    const result = await scripted.session.send("Plan it");
    expect(result.status).toBe("completed");
    const notices = scripted.events.filter((event): event is EventOf<"notice"> => event.type === "notice");
    expect(notices.map((notice) => [notice.level, notice.code])).toEqual([["warning", "E_TOOL_EXECUTION"]]);
    expect(readFileSync(join(scripted.projectRoot, ".lathe"), "utf8")).toBe("not a folder\n");
  });
});
