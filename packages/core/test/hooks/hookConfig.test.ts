import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compileMatcher, parseHooksConfig } from "../../src/hooks/index.js";
import { createHookTestBed, type HookTestBed } from "./hookTestBed.js";

let bed: HookTestBed;
beforeEach(() => {
  bed = createHookTestBed();
});
afterEach(() => bed.cleanup());

const hook = { type: "command", command: "true" };

describe("loadHooks", () => {
  it("loads the user's and the project's hooks, none when the files are missing", () => {
    expect(bed.load()).toEqual({ hooks: [], errors: [] });
    bed.userHooks({ hooks: { Stop: [{ hooks: [{ ...hook, timeout: 5 }] }] } });
    bed.projectHooks({ hooks: { PreToolUse: [{ matcher: "edit_file", hooks: [hook] }] } });

    const loaded = bed.load();
    expect(loaded.errors).toEqual([]);
    expect(
      loaded.hooks.map(({ event, matcher, command, timeoutSeconds, source }) => ({
        event,
        matcher,
        command,
        timeoutSeconds,
        source,
      })),
    ).toEqual([
      {
        event: "Stop",
        matcher: undefined,
        command: "true",
        timeoutSeconds: 5,
        source: path.join(bed.latheHome, "hooks.json"),
      },
      {
        event: "PreToolUse",
        matcher: "edit_file",
        command: "true",
        timeoutSeconds: undefined,
        source: path.join(bed.projectRoot, ".lathe", "hooks.json"),
      },
    ]);
  });

  it("reports an invalid project file by name and keeps the user's hooks", () => {
    bed.userHooks({ hooks: { Stop: [{ hooks: [hook] }] } });
    bed.projectHooks({
      hooks: { PreToolUse: [{ matcher: "edit_file", hooks: [{ type: "command", timeout: -1 }] }] },
    });

    const loaded = bed.load();
    expect(loaded.hooks.map((h) => h.event)).toEqual(["Stop"]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]?.file).toBe(path.join(bed.projectRoot, ".lathe", "hooks.json"));
    expect(loaded.errors[0]?.message).toMatch(/^invalid hooks file: hooks\.PreToolUse\[0\]\.hooks\[0\]/);
    expect(loaded.errors[0]?.message).toMatch(/command/);
  });

  it("reports a file that is not JSON, or not the hooks shape", () => {
    const file = path.join(bed.latheHome, "hooks.json");
    writeFileSync(file, "{ hooks: ");
    expect(bed.load().errors).toEqual([
      { file, message: expect.stringMatching(/^invalid hooks file: not JSON/) },
    ]);
    bed.userHooks({ PreToolUse: [] });
    expect(bed.load().errors).toEqual([
      { file, message: expect.stringMatching(/^invalid hooks file: .*hooks/s) },
    ]);
  });

  it("reports an unreadable path", () => {
    mkdirSync(path.join(bed.latheHome, "hooks.json"));
    expect(bed.load().errors).toEqual([
      {
        file: path.join(bed.latheHome, "hooks.json"),
        message: expect.stringMatching(/^cannot read hooks file/),
      },
    ]);
  });

  it("rejects a matcher that is not a valid regular expression", () => {
    const loaded = parseHooksConfig(
      { hooks: { PreToolUse: [{ matcher: "edit(", hooks: [hook] }] } },
      "f.json",
    );
    expect(loaded.hooks).toEqual([]);
    expect(loaded.errors[0]?.message).toMatch(/matcher "edit\(" is not a valid regular expression/);
  });

  it("skips events and hook types from Claude Code that Lathe does not have, keeping the rest", () => {
    const loaded = parseHooksConfig(
      {
        hooks: {
          Notification: [{ hooks: [hook] }],
          Stop: [{ hooks: [{ type: "prompt", prompt: "are you done?" }, hook] }],
        },
      },
      "f.json",
    );
    expect(loaded.hooks.map((h) => h.event)).toEqual(["Stop"]);
    expect(loaded.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/unknown hook event "Notification" ignored/),
      expect.stringMatching(/hooks\.Stop\[0\]\.hooks\[0\] of type "prompt" ignored/),
    ]);
  });
});

describe("compileMatcher", () => {
  it("follows Claude Code's forms, matching whole names", () => {
    expect(compileMatcher(undefined)("anything")).toBe(true);
    expect(compileMatcher("")("anything")).toBe(true);
    expect(compileMatcher("*")("anything")).toBe(true);
    const alternatives = compileMatcher("edit_file|write_file");
    expect(["edit_file", "write_file", "read_file", "edit"].map(alternatives)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const regex = compileMatcher("mcp__github__.*");
    expect(["mcp__github__create_issue", "mcp__gitlab__x"].map(regex)).toEqual([true, false]);
  });
});
