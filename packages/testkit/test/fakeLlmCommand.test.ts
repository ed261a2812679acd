import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// The bin runs the built dist/ (npm test builds before running Vitest).
const bin = fileURLToPath(new URL("../bin/lathe-fake-llm.js", import.meta.url));

const running: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

function start(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args]);
  running.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  const firstLine = () =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const end = stdout.indexOf("\n");
        if (end >= 0) resolve(stdout.slice(0, end));
      };
      child.stdout.on("data", check);
      check();
      child.on("close", () => reject(new Error(`exited before printing a line; stderr: ${stderr}`)));
    });
  return { child, exited, firstLine };
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "fake-llm-cli-"));
}

describe("lathe-fake-llm", () => {
  it("prints the listening line first, records every request body, and stops cleanly on SIGTERM", async () => {
    const dir = tempDir();
    const script = join(dir, "script.json");
    const record = join(dir, "requests.jsonl");
    writeFileSync(script, JSON.stringify({ turns: [{ text: "first" }, { text: "second" }] }));

    const server = start(["--script", script, "--record", record]);
    const line = await server.firstLine();
    const match = /^listening (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
    expect(match).not.toBeNull();
    const url = match?.[1] ?? "";

    const bodies = [
      { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] },
      { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "again" }] },
    ];
    const first = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify(bodies[0]),
    });
    expect(await first.json()).toMatchObject({
      choices: [{ message: { role: "assistant", content: "first" } }],
    });
    const second = await fetch(`${url}/v1/messages`, { method: "POST", body: JSON.stringify(bodies[1]) });
    expect(await second.json()).toMatchObject({ content: [{ type: "text", text: "second" }] });

    const lines = readFileSync(record, "utf8").split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1).map((text) => JSON.parse(text))).toEqual(bodies);

    server.child.kill("SIGTERM");
    const { code, stdout } = await server.exited;
    expect(code).toBe(0);
    expect(stdout).toBe(`${line}\n`);
  });

  it("listens on the port it is given", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "script.json"), JSON.stringify({ turns: [] }));
    const probe = start(["--script", join(dir, "script.json")]);
    const port = Number(/:(\d+)$/.exec(await probe.firstLine())?.[1]);
    probe.child.kill("SIGINT");
    expect((await probe.exited).code).toBe(0);

    const server = start(["--script", join(dir, "script.json"), "--port", String(port)]);
    expect(await server.firstLine()).toBe(`listening http://127.0.0.1:${port}`);
    server.child.kill("SIGINT");
    expect((await server.exited).code).toBe(0);
  });

  it("prints usage for --help", async () => {
    const { exited } = start(["--help"]);
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: lathe-fake-llm --script FILE \[--port N\] \[--record FILE\]/);
  });

  it.each([
    [["--bogus"], /Unknown option '--bogus'/],
    [[], /--script FILE is required/],
    [["--script", "x.json", "--port", "http"], /--port must be a number from 0 to 65535, not "http"/],
    [["--script", "/nonexistent/script.json"], /cannot read script \/nonexistent\/script\.json/],
  ])("exits 2 with a message for bad arguments %j", async (args, message) => {
    const { code, stdout, stderr } = await start(args).exited;
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
  });

  it("exits 2 naming the bad turn of an invalid script", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "script.json"), JSON.stringify({ turns: [{ text: "ok" }, { hang_ms: "long" }] }));
    const { code, stderr } = await start(["--script", join(dir, "script.json")]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain("turn 1 (turns[1]) hang_ms");
  });
});
