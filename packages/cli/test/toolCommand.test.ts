import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "@lathe/core";
import { fakeKeys, processGoneWithin } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import { makeWorkspace, runLathe } from "./latheProcess.js";

/** Runs `lathe tool …` in a fresh project; `line` is the one JSON line it printed, when there is one. */
async function tool(args: string[], files: Record<string, string> = {}) {
  const ws = await makeWorkspace(files);
  const run = await runLathe(["tool", ...args, "--cwd", ws.root], { home: ws.home });
  const lines = run.stdout.split("\n").filter(Boolean);
  const line = lines.length === 1 ? JSON.parse(lines[0]!) : undefined;
  return { run, lines, line, ws };
}

describe("lathe tool", () => {
  it("runs read_file and prints exactly one JSON line with its output", async () => {
    const { run, lines, line } = await tool(["read_file", "--args", '{"path":"a.txt"}'], {
      "a.txt": "hello\nworld\n",
    });
    expect(run.code).toBe(0);
    expect(lines).toHaveLength(1);
    expect(run.stdout.endsWith("\n")).toBe(true);
    expect(line.ok).toBe(true);
    expect(line.output).toBe("     1|hello\n     2|world");
    expect(line.metadata).toMatchObject({ totalLines: 2 });
    expect(run.stderr).toBe("");
  });

  it("refuses a call the approval mode would ask about, without running it", async () => {
    const { run, line, ws } = await tool(["write_file", "--args", '{"path":"new.txt","contents":"x"}']);
    expect(run.code).toBe(0);
    expect(line.ok).toBe(false);
    expect(line.error.code).toBe("E_USER_REJECTED");
    expect(line.error.message).toContain("medium risk");
    expect(line.error.message).toContain("--approval-mode auto_edit");
    expect(existsSync(join(ws.root, "new.txt"))).toBe(false);
  });

  it("runs it when the approval mode allows it", async () => {
    const contents = "line one\nline two\n";
    const { run, line, ws } = await tool([
      "write_file",
      "--args",
      JSON.stringify({ path: "dir/new.txt", contents }),
      "--approval-mode",
      "yolo",
    ]);
    expect(run.code).toBe(0);
    expect(line.ok).toBe(true);
    expect(readFileSync(join(ws.root, "dir/new.txt"), "utf8")).toBe(contents);
  });

  it("answers an unknown tool with E_TOOL_NOT_FOUND and a suggestion", async () => {
    const { run, line } = await tool(["read-file", "--args", "{}"]);
    expect(run.code).toBe(0);
    expect(line).toEqual({
      ok: false,
      error: { code: "E_TOOL_NOT_FOUND", message: 'Unknown tool "read-file". Did you mean: read_file?' },
    });
  });

  it("answers arguments that do not match the schema with E_INVALID_ARGS", async () => {
    const { run, line } = await tool(["read_file", "--args", '{"path":3}']);
    expect(run.code).toBe(0);
    expect(line.error.code).toBe("E_INVALID_ARGS");
    expect(line.error.message).toContain("path: Invalid input: expected string, received number");
  });

  it("runs a command with the exit code and its output", async () => {
    const { run, line } = await tool([
      "run_terminal_cmd",
      "--args",
      '{"command":"echo hi"}',
      "--approval-mode",
      "yolo",
    ]);
    expect(run.code).toBe(0);
    expect(line.ok).toBe(true);
    expect(line.output).toContain("Exit code: 0");
    expect(line.output).toContain("hi");
    expect(line.metadata).toMatchObject({ exitCode: 0 });
  });

  it("stops a background command when it exits", async () => {
    // Outside the sandbox, so that the pid the command writes is the host's, not its namespace's.
    const { line, ws } = await tool([
      "run_terminal_cmd",
      "--args",
      JSON.stringify({ command: "echo $$ > leader.pid; sleep 30", is_background: true }),
      "--approval-mode",
      "yolo",
      "--no-sandbox",
    ]);
    expect(line.metadata).toMatchObject({ terminalId: "t1", status: { state: "running" } });
    const leader = Number.parseInt(readFileSync(join(ws.root, "leader.pid"), "utf8"), 10);
    expect(await processGoneWithin(leader)).toBe(true);
  });

  it.each([
    {
      why: "--args is not JSON",
      args: ["read_file", "--args", "{path:"],
      message: "--args is not valid JSON",
    },
    { why: "--args is missing", args: ["read_file"], message: "--args is required" },
    { why: "no tool is named", args: ["--args", "{}"], message: "no tool name given" },
    {
      why: "a flag is unknown",
      args: ["read_file", "--args", "{}", "--bogus"],
      message: "Unknown option '--bogus'",
    },
    {
      why: "the approval mode is unknown",
      args: ["read_file", "--args", "{}", "--approval-mode", "sometimes"],
      message: "--approval-mode must be one of",
    },
  ])("exits 2 with a message on stderr when $why", async ({ args, message }) => {
    const { run } = await tool(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`lathe tool: ${message}`);
    expect(run.stderr).toContain("Usage: lathe tool <name> --args <json>");
  });

  it("lists the tools with one line each on --help, and without a tool name", async () => {
    const help = await tool(["--help"]);
    expect(help.run.code).toBe(0);
    expect(help.run.stdout).toContain("Usage: lathe tool <name> --args <json>");
    for (const name of ["read_file", "write_file", "run_terminal_cmd", "terminal_output", "terminal_kill"]) {
      expect(help.run.stdout).toMatch(new RegExp(`^  ${name} +\\S.*$`, "m"));
    }
    const bare = await tool([]);
    expect(bare.run.code).toBe(2);
    expect(bare.run.stderr).toMatch(/^ {2}read_file +Read a text file/m);
  });

  it("prints one tool's description and schema on <name> --help", async () => {
    const { run } = await tool(["terminal_output", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("lathe tool terminal_output --args <json>   (read)");
    expect(run.stdout).toContain('"since_last"');
  });
});

const sandbox = await detectSandbox();

describe.runIf(sandbox.available)("lathe tool run_terminal_cmd in the sandbox", () => {
  const touch = (marker: string, extra: string[] = []) =>
    tool([
      "run_terminal_cmd",
      "--args",
      JSON.stringify({ command: `touch ${marker}` }),
      "--approval-mode",
      "yolo",
      ...extra,
    ]);

  it("cannot write outside the project, even in yolo mode", async () => {
    const outside = mkdtempSync(join(tmpdir(), "lathe-outside-"));
    const { line } = await touch(join(outside, "marker"));
    expect(line.ok).toBe(true);
    expect(line.metadata.exitCode).not.toBe(0);
    expect(existsSync(join(outside, "marker"))).toBe(false);
  });

  it("finds the file system read-only beyond the project and its private /tmp", async () => {
    const outside = mkdtempSync(join("/var/tmp", "lathe-outside-"));
    const { line } = await touch(join(outside, "marker"));
    expect(line.output).toContain("Read-only file system");
    expect(existsSync(join(outside, "marker"))).toBe(false);
  });

  it("writes there with --no-sandbox, the user's own word", async () => {
    const outside = mkdtempSync(join(tmpdir(), "lathe-outside-"));
    const { line } = await touch(join(outside, "marker"), ["--no-sandbox"]);
    expect(line.metadata.exitCode).toBe(0);
    expect(existsSync(join(outside, "marker"))).toBe(true);
  });

  it("still writes inside the project", async () => {
    const { line, ws } = await tool([
      "run_terminal_cmd",
      "--args",
      '{"command":"touch inside"}',
      "--approval-mode",
      "yolo",
    ]);
    expect(line.metadata.exitCode).toBe(0);
    expect(existsSync(join(ws.root, "inside"))).toBe(true);
  });
});

describe("lathe tool knows a session's tools", () => {
  it("lists the web tools on --help", async () => {
    const help = await tool(["--help"]);
    for (const name of ["web_fetch", "web_search", "browser_use", "generate_image"]) {
      expect(help.run.stdout).toMatch(new RegExp(`^  ${name} +\\S.*$`, "m"));
    }
  });

  it("refuses a fetch of a blocked address before sending anything", async () => {
    const { line } = await tool([
      "web_fetch",
      "--args",
      '{"url":"http://169.254.169.254/"}',
      "--approval-mode",
      "yolo",
    ]);
    expect(line.error.code).toBe("E_NETWORK_BLOCKED");
  });

  it("refuses a fetch of a URL carrying a key this machine holds", async () => {
    const ws = await makeWorkspace();
    const url = `https://example.com/?k=${fakeKeys.openai}`;
    const run = await runLathe(
      ["tool", "web_fetch", "--args", JSON.stringify({ url }), "--approval-mode", "yolo", "--cwd", ws.root],
      { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } },
    );
    const line = JSON.parse(run.stdout);
    expect(line.error.code).toBe("E_SECURITY_BLOCKED");
    expect(line.error.message).not.toContain(fakeKeys.openai);
  });

  it("refuses a read outside the project with the path guard's code", async () => {
    const { line } = await tool(["read_file", "--args", '{"path":"/etc/passwd"}', "--approval-mode", "yolo"]);
    expect(line.error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("says E_TOOL_NOT_FOUND with a suggestion for a web tool misspelt", async () => {
    const { line } = await tool(["web_fetc", "--args", "{}"]);
    expect(line.error).toEqual({
      code: "E_TOOL_NOT_FOUND",
      message: 'Unknown tool "web_fetc". Did you mean: web_fetch?',
    });
  });
});
