import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CustomCommand,
  expandCustomCommand,
  loadCustomCommands,
} from "../../../src/context/commands/index.js";

let base: string;
beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), "lathe-commands-"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const projectRoot = () => path.join(base, "project");
const latheHome = () => path.join(base, "home");

function write(relative: string, text: string): void {
  const file = path.join(base, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe("loadCustomCommands", () => {
  it("reads the user's and the project's commands, the project's replacing the user's of the same name", async () => {
    write("home/commands/review.md", "Review my changes.\n");
    write("home/commands/ship.md", "Ship it.\n");
    write(
      "project/.lathe/commands/review.md",
      "---\ndescription: Review a file the team's way\nargument-hint: <file>\n---\nReview $ARGUMENTS with care.\n",
    );
    write("project/.lathe/commands/notes.txt", "not a command");
    const loaded = await loadCustomCommands({
      projectRoot: projectRoot(),
      latheHome: latheHome(),
      projectCommands: true,
    });
    expect(loaded.errors).toEqual([]);
    expect(loaded.commands).toEqual([
      {
        name: "review",
        description: "Review a file the team's way",
        argumentHint: "<file>",
        template: "Review $ARGUMENTS with care.",
        source: path.join(".lathe", "commands", "review.md"),
      },
      {
        name: "ship",
        description: "Ship it.",
        argumentHint: undefined,
        template: "Ship it.",
        source: path.join(latheHome(), "commands", "ship.md"),
      },
    ]);
  });

  it("reports a bad file and keeps the others", async () => {
    write("project/.lathe/commands/empty.md", "---\ndescription: nothing\n---\n");
    write("project/.lathe/commands/broken.md", "---\ndescription: never closed\n");
    write("project/.lathe/commands/fine.md", "Fine.\n");
    const loaded = await loadCustomCommands({
      projectRoot: projectRoot(),
      latheHome: latheHome(),
      projectCommands: true,
    });
    expect(loaded.commands.map((command) => command.name)).toEqual(["fine"]);
    expect(loaded.errors).toEqual([
      {
        file: path.join(".lathe", "commands", "broken.md"),
        message: expect.stringContaining("never closed"),
      },
      { file: path.join(".lathe", "commands", "empty.md"), message: "the command has no text" },
    ]);
  });
});

describe("expandCustomCommand", () => {
  const command = (template: string): CustomCommand => ({
    name: "fix",
    description: "",
    template,
    source: "",
  });
  const cases: [template: string, typed: string, expanded: string | undefined][] = [
    ["Fix $ARGUMENTS now.", "/fix the flaky test", "Fix the flaky test now."],
    ["Move $1 to $2.", "/fix a.ts b.ts", "Move a.ts to b.ts."],
    ["Move $1 to $2.", "/fix a.ts", "Move a.ts to ."],
    ["Fix the build.", "/fix", "Fix the build."],
    ["Fix the build.", "/fix on linux", "Fix the build.\n\non linux"],
    ["Fix $ARGUMENTS.", "/fix costs $1", "Fix costs $1."],
    ["Fix it.", "/other thing", undefined],
    ["Fix it.", "please /fix", undefined],
  ];
  for (const [template, typed, expanded] of cases)
    it(`${JSON.stringify(typed)} with ${JSON.stringify(template)}`, () => {
      expect(expandCustomCommand([command(template)], typed)).toBe(expanded);
    });
});
