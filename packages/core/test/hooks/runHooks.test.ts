import { readFileSync } from "node:fs";
import path from "node:path";
import { processGoneWithin } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunHooksOptions, runHooks } from "../../src/hooks/index.js";
import { createHookTestBed, type HookTestBed, readInputField } from "./hookTestBed.js";

let bed: HookTestBed;
beforeEach(() => {
  bed = createHookTestBed();
});
afterEach(() => bed.cleanup());

function options(extra: Partial<RunHooksOptions> = {}): RunHooksOptions {
  const loaded = bed.load();
  expect(loaded.errors).toEqual([]);
  return { hooks: loaded.hooks, projectRoot: bed.projectRoot, sessionId: "session-1", ...extra };
}

const commandHook = (command: string, timeout?: number) => ({
  type: "command",
  command,
  ...(timeout === undefined ? {} : { timeout }),
});

/** Prints `json` on stdout, exit 0. */
const printJson = (json: unknown) => `printf '%s' '${JSON.stringify(json)}'`;

const editCall = (file: string) => ({
  toolName: "edit_file",
  toolInput: { path: file, old_string: "a", new_string: "b" },
});

describe("runHooks", () => {
  it("blocks edit_file on a lock file with the hook's stderr, and lets other files through", async () => {
    const guard = bed.script(
      "protect-locks.sh",
      `file=$(${readInputField("tool_input.path")})
case "$file" in
  *.lock) echo "refusing to edit $file: lock files are written by the package manager" >&2; exit 2 ;;
esac
exit 0
`,
    );
    bed.projectHooks({ hooks: { PreToolUse: [{ matcher: "edit_file", hooks: [commandHook(guard)] }] } });

    const blocked = await runHooks("PreToolUse", editCall("package-lock.lock"), options());
    expect(blocked.blocked).toEqual({
      reason: "refusing to edit package-lock.lock: lock files are written by the package manager",
    });
    expect(blocked.errors).toEqual([]);

    const allowed = await runHooks("PreToolUse", editCall("a.ts"), options());
    expect(allowed).toEqual({ additionalContext: [], systemMessages: [], errors: [] });
  });

  it("sends Claude Code's input JSON on stdin and runs in the project dir with its env", async () => {
    const dump = bed.script(
      "dump.sh",
      `cat > "$LATHE_PROJECT_DIR/input.json"; echo "$PWD|$LATHE_PROJECT_DIR|$CLAUDE_PROJECT_DIR|$EXTRA" > env.txt`,
    );
    bed.userHooks({ hooks: { PostToolUse: [{ hooks: [commandHook(dump)] }] } });

    await runHooks(
      "PostToolUse",
      {
        toolName: "write_file",
        toolInput: { path: "x.ts" },
        toolResponse: { ok: true },
        toolUseId: "call-1",
      },
      options({ env: { EXTRA: "yes" }, permissionMode: "auto_edit" }),
    );

    expect(JSON.parse(readFileSync(path.join(bed.projectRoot, "input.json"), "utf8"))).toEqual({
      session_id: "session-1",
      cwd: bed.projectRoot,
      permission_mode: "auto_edit",
      hook_event_name: "PostToolUse",
      tool_name: "write_file",
      tool_input: { path: "x.ts" },
      tool_response: { ok: true },
      tool_use_id: "call-1",
    });
    const root = bed.projectRoot;
    expect(readFileSync(path.join(root, "env.txt"), "utf8").trim()).toBe(`${root}|${root}|${root}|yes`);
  });

  it("collects additionalContext printed as JSON by PostToolUse hooks", async () => {
    const lint = printJson({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint: 2 warnings in a.ts" },
    });
    const note = printJson({ hookSpecificOutput: { additionalContext: "remember to run the tests" } });
    bed.projectHooks({
      hooks: { PostToolUse: [{ matcher: "*", hooks: [commandHook(lint), commandHook(note)] }] },
    });

    const outcome = await runHooks(
      "PostToolUse",
      { toolName: "edit_file", toolInput: {}, toolResponse: "ok" },
      options(),
    );
    expect(outcome.additionalContext.sort()).toEqual([
      "lint: 2 warnings in a.ts",
      "remember to run the tests",
    ]);
    expect(outcome.blocked).toBeUndefined();
  });

  it("matches alternatives like edit_file|write_file and nothing else", async () => {
    bed.projectHooks({
      hooks: {
        PreToolUse: [{ matcher: "edit_file|write_file", hooks: [commandHook("echo no >&2; exit 2")] }],
      },
    });
    const call = (toolName: string) => runHooks("PreToolUse", { toolName, toolInput: {} }, options());

    expect((await call("edit_file")).blocked).toEqual({ reason: "no" });
    expect((await call("write_file")).blocked).toEqual({ reason: "no" });
    expect((await call("read_file")).blocked).toBeUndefined();
    expect((await call("edit_file_extra")).blocked).toBeUndefined();
  });

  it("takes deny over allow across hooks, with the denying hook's reason", async () => {
    const decide = (permissionDecision: string, permissionDecisionReason: string) =>
      commandHook(
        printJson({
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, permissionDecisionReason },
        }),
      );
    bed.projectHooks({
      hooks: {
        PreToolUse: [
          { matcher: "run_terminal_cmd", hooks: [decide("allow", "tests are fine")] },
          { matcher: "run_.*", hooks: [decide("deny", "no network in CI")] },
        ],
      },
    });

    const outcome = await runHooks(
      "PreToolUse",
      { toolName: "run_terminal_cmd", toolInput: { command: "curl example.com" } },
      options(),
    );
    expect(outcome.permissionDecision).toBe("deny");
    expect(outcome.permissionReason).toBe("no network in CI");
  });

  it("kills a hook that outlives its timeout, with its whole process group, as a non-blocking error", async () => {
    const slow = bed.script("slow.sh", `sleep 30 & echo $! > "$LATHE_PROJECT_DIR/child.pid"; wait`);
    bed.projectHooks({ hooks: { PreToolUse: [{ hooks: [commandHook(slow, 0.5)] }] } });

    const started = Date.now();
    const outcome = await runHooks("PreToolUse", { toolName: "read_file", toolInput: {} }, options());

    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toMatch(/timed out after 0\.5 s and was killed/);
    const childPid = Number.parseInt(readFileSync(path.join(bed.projectRoot, "child.pid"), "utf8"), 10);
    expect(await processGoneWithin(childPid)).toBe(true);
  });

  it("kills running hooks when the signal aborts", async () => {
    const slow = bed.script("slow.sh", `sleep 30 & echo $! > "$LATHE_PROJECT_DIR/child.pid"; wait`);
    bed.projectHooks({ hooks: { Stop: [{ hooks: [commandHook(slow)] }] } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);

    const outcome = await runHooks("Stop", { stopHookActive: false }, options({ signal: controller.signal }));

    expect(outcome.errors).toEqual([expect.stringMatching(/was cancelled/)]);
    const childPid = Number.parseInt(readFileSync(path.join(bed.projectRoot, "child.pid"), "utf8"), 10);
    expect(await processGoneWithin(childPid)).toBe(true);
  });

  it("blocks a prompt with decision:block from a UserPromptSubmit hook", async () => {
    const guard = bed.script(
      "no-secrets.sh",
      `prompt=$(${readInputField("prompt")})
if [[ "$prompt" == *password* ]]; then
  ${printJson({ decision: "block", reason: "prompts must not contain passwords" })}
fi
`,
    );
    bed.projectHooks({ hooks: { UserPromptSubmit: [{ hooks: [commandHook(guard)] }] } });

    const blocked = await runHooks("UserPromptSubmit", { prompt: "my password is hunter2" }, options());
    expect(blocked.blocked).toEqual({ reason: "prompts must not contain passwords" });
    const fine = await runHooks("UserPromptSubmit", { prompt: "fix the build" }, options());
    expect(fine.blocked).toBeUndefined();
  });

  it("adds a UserPromptSubmit hook's plain stdout as context", async () => {
    bed.projectHooks({ hooks: { UserPromptSubmit: [{ hooks: [commandHook("echo 'branch: main'")] }] } });
    const outcome = await runHooks("UserPromptSubmit", { prompt: "hi" }, options());
    expect(outcome.additionalContext).toEqual(["branch: main"]);
  });

  it("records other exit codes as non-blocking errors", async () => {
    bed.projectHooks({ hooks: { PreToolUse: [{ hooks: [commandHook("echo broken >&2; exit 1")] }] } });
    const outcome = await runHooks("PreToolUse", { toolName: "edit_file", toolInput: {} }, options());
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.errors).toEqual([expect.stringMatching(/exited 1: broken$/)]);
  });

  it("turns continue:false into a stop with its stopReason", async () => {
    bed.projectHooks({
      hooks: {
        PostToolUse: [{ hooks: [commandHook(printJson({ continue: false, stopReason: "budget spent" }))] }],
      },
    });
    const outcome = await runHooks(
      "PostToolUse",
      { toolName: "x", toolInput: {}, toolResponse: "" },
      options(),
    );
    expect(outcome.stop).toEqual({ reason: "budget spent" });
  });

  it("does not let exit 2 block SessionStart, and matches its source", async () => {
    bed.projectHooks({
      hooks: { SessionStart: [{ matcher: "startup", hooks: [commandHook("echo nope >&2; exit 2")] }] },
    });
    const started = await runHooks("SessionStart", { source: "startup" }, options());
    expect(started.blocked).toBeUndefined();
    expect(started.errors).toEqual([expect.stringMatching(/cannot block SessionStart: nope$/)]);
    const resumed = await runHooks("SessionStart", { source: "resume" }, options());
    expect(resumed.errors).toEqual([]);
  });

  it("caps a hook's output", async () => {
    bed.projectHooks({
      hooks: { UserPromptSubmit: [{ hooks: [commandHook("head -c 100000 /dev/zero | tr '\\0' x")] }] },
    });
    const outcome = await runHooks("UserPromptSubmit", { prompt: "hi" }, options({ outputCapBytes: 1000 }));
    expect(outcome.additionalContext[0]).toHaveLength(1000);
  });

  it("runs the same command once when both files configure it", async () => {
    const counter = `echo run >> "$LATHE_PROJECT_DIR/runs.txt"`;
    bed.userHooks({ hooks: { Stop: [{ hooks: [commandHook(counter)] }] } });
    bed.projectHooks({ hooks: { Stop: [{ hooks: [commandHook(counter)] }] } });
    await runHooks("Stop", { stopHookActive: false }, options());
    expect(readFileSync(path.join(bed.projectRoot, "runs.txt"), "utf8")).toBe("run\n");
  });
});
