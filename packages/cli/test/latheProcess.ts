import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const latheBin = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));

export interface LatheRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A temp project with the given files, and a temp LATHE_HOME with optional settings. */
export async function makeWorkspace(files: Record<string, string> = {}, settings?: unknown) {
  const root = mkdtempSync(join(tmpdir(), "lathe-project-"));
  const home = mkdtempSync(join(tmpdir(), "lathe-home-"));
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), contents);
  }
  if (settings) writeFileSync(join(home, "settings.json"), JSON.stringify(settings));
  return { root, home };
}

/** Runs the real `lathe` command as a child process with a clean provider environment. */
export function runLathe(
  args: string[],
  options: {
    home: string;
    env?: Record<string, string>;
    onStdout?: (text: string, kill: (s: NodeJS.Signals) => void) => void;
  },
): Promise<LatheRun> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$/.test(key) && key !== "LATHE_MODEL") env[key] = value;
  }
  Object.assign(env, { LATHE_HOME: options.home }, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [latheBin, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      options.onStdout?.(stdout, (signal) => child.kill(signal));
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The arguments of a headless run in `root` against a scripted OpenAI-protocol server. */
export function headlessArgs(
  prompt: string,
  at: { root: string; serverUrl: string; format?: "text" | "json" | "stream-json" },
  extra: string[] = [],
): string[] {
  return [
    "-p",
    prompt,
    "--cwd",
    at.root,
    "--model",
    "openai:gpt-4.1",
    "--base-url",
    `${at.serverUrl}/v1`,
    "--output-format",
    at.format ?? "json",
    ...extra,
  ];
}
