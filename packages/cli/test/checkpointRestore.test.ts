import { execFileSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { CheckpointRecord } from "@lathe/core";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "u",
      GIT_AUTHOR_EMAIL: "u@x",
      GIT_COMMITTER_NAME: "u",
      GIT_COMMITTER_EMAIL: "u@x",
    },
  });

function sizeOf(dir: string): number {
  return readdirSync(dir).reduce((total, name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    return total + (stat.isDirectory() ? sizeOf(path) : stat.size);
  }, 0);
}

const original: Record<string, Buffer> = {
  "a.txt": Buffer.from("alpha\nkeep\n"),
  "src/b.ts": Buffer.from("export const b = 1;\n"),
  "c.bin": Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]),
  "lib/c.py": Buffer.from("def c():\n    return 3\n"),
  "docs/d.md": Buffer.from("# Delete me through the shell\n"),
};

describe("checkpoints undo the agent's edits and its shell commands", () => {
  it("restores four files byte for byte, leaves the user's git alone and skips a 1 GiB file", async () => {
    server = await startFakeLlm({
      script: {
        turns: [
          {
            tool_calls: [
              { name: "read_file", arguments: { path: "a.txt" } },
              { name: "read_file", arguments: { path: "src/b.ts" } },
              { name: "read_file", arguments: { path: "lib/c.py" } },
            ],
          },
          {
            tool_calls: [
              { name: "edit_file", arguments: { path: "a.txt", old_string: "alpha", new_string: "ALPHA" } },
              { name: "write_file", arguments: { path: "src/b.ts", contents: "export const b = 2;\n" } },
              {
                name: "edit_file",
                arguments: { path: "lib/c.py", old_string: "return 3", new_string: "return 4" },
              },
            ],
          },
          {
            tool_calls: [
              {
                name: "run_terminal_cmd",
                arguments: { command: "rm docs/d.md && printf 'now text' > c.bin && echo new > created.txt" },
              },
            ],
          },
          { text: "Done." },
          { text: "Second message answered." },
        ],
      },
    });
    const ws = await makeWorkspace({}, { sandbox: { mode: "off" } });
    for (const [path, bytes] of Object.entries(original)) {
      execFileSync("mkdir", ["-p", join(ws.root, path, "..")]);
      writeFileSync(join(ws.root, path), bytes);
    }
    writeFileSync(join(ws.root, ".gitignore"), "ignored.log\n");
    writeFileSync(join(ws.root, "ignored.log"), "not for checkpoints\n");
    git(ws.root, "init", "-q");
    git(ws.root, "add", "-A");
    git(ws.root, "commit", "-qm", "start");
    writeFileSync(join(ws.root, "a.txt"), original["a.txt"]!); // unchanged content, fresh mtime
    writeFileSync(join(ws.root, "staged.txt"), "staged\n");
    git(ws.root, "add", "staged.txt");
    const big = openSync(join(ws.root, "huge.bin"), "w");
    ftruncateSync(big, 1024 ** 3);
    closeSync(big);
    const statusBefore = git(ws.root, "--no-optional-locks", "status", "--porcelain=v1");
    const indexBefore = readFileSync(join(ws.root, ".git", "index"));

    const lathe = (args: string[]) =>
      runLathe(args, { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } });
    const headless = (prompt: string, extra: string[] = []) =>
      lathe(
        headlessArgs(prompt, { root: ws.root, serverUrl: server!.url }, [
          "--approval-mode",
          "yolo",
          ...extra,
        ]),
      );
    const first = await headless("Change the files and delete docs/d.md");
    expect(first.code).toBe(0);
    const sessionId: string = JSON.parse(first.stdout).session_id;
    await headless("Anything else?", ["--continue"]);

    expect(readFileSync(join(ws.root, "a.txt"), "utf8")).toBe("ALPHA\nkeep\n");
    expect(existsSync(join(ws.root, "docs/d.md"))).toBe(false);
    expect(git(ws.root, "--no-optional-locks", "status", "--porcelain=v1")).not.toBe(statusBefore);

    const listed = await lathe(["checkpoints", "list", sessionId, "--cwd", ws.root, "--json"]);
    const { checkpoints } = JSON.parse(listed.stdout) as { checkpoints: CheckpointRecord[] };
    // One at each user message, one before each of the four mutating calls.
    expect(checkpoints.map((c) => c.reason)).toEqual([
      "user_message",
      "tool_call",
      "tool_call",
      "tool_call",
      "tool_call",
      "user_message",
    ]);
    const firstMessage = checkpoints[0]!.messageId!;

    const diff = await lathe(["checkpoints", "diff", checkpoints[0]!.id, "--cwd", ws.root, "--json"]);
    const changed = JSON.parse(diff.stdout) as { files: { path: string; status: string }[] };
    expect(changed.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added created.txt",
      "deleted docs/d.md",
      "modified a.txt",
      "modified c.bin",
      "modified lib/c.py",
      "modified src/b.ts",
    ]);

    const restored = await lathe(["checkpoints", "restore", firstMessage, "--cwd", ws.root, "--json"]);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    const report = JSON.parse(restored.stdout);
    expect(report.removed).toEqual(["created.txt"]);
    expect(report.messagesRemoved).toBe(10);
    for (const [path, bytes] of Object.entries(original)) {
      expect(readFileSync(join(ws.root, path)).equals(bytes), path).toBe(true);
    }
    expect(existsSync(join(ws.root, "created.txt"))).toBe(false);
    expect(readFileSync(join(ws.root, "ignored.log"), "utf8")).toBe("not for checkpoints\n");
    expect(statSync(join(ws.root, "huge.bin")).size).toBe(1024 ** 3);
    // The user's own repository: the very same index file and the same status (read without
    // letting git refresh its index).
    expect(readFileSync(join(ws.root, ".git", "index")).equals(indexBefore)).toBe(true);
    expect(git(ws.root, "--no-optional-locks", "status", "--porcelain=v1")).toBe(statusBefore);
    // The 1 GiB file was never copied into the shadow repository.
    expect(sizeOf(join(ws.home, "checkpoints"))).toBeLessThan(5 * 1024 * 1024);

    // The conversation went back to before the first message; the full one survives as a fork.
    const shown = JSON.parse(
      (await lathe(["sessions", "show", sessionId, "--cwd", ws.root, "--json"])).stdout,
    );
    expect(shown.messages).toHaveLength(0);
    const backup = JSON.parse(
      (await lathe(["sessions", "show", report.backupSession, "--cwd", ws.root, "--json"])).stdout,
    );
    expect(backup.messages).toHaveLength(10);
  });

  it("refuses to checkpoint the home directory but still runs", async () => {
    server = await startFakeLlm({ script: { turns: [{ text: "hi" }] } });
    const ws = await makeWorkspace({}, { sandbox: { mode: "off" } });
    const run = await runLathe(
      ["-p", "hello", "--cwd", ws.root, "--model", "openai:gpt-4.1", "--base-url", `${server.url}/v1`],
      { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai, HOME: ws.root } },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("checkpoints are off");
  });
});
