import type { TerminalInfo, TerminalOutput } from "./backgroundTerminals.js";
import type { RingRead } from "./outputRing.js";

/** "running for 3.2 s", "exited with code 1 after 0.4 s", "killed (SIGTERM) after 12.0 s". */
export function describeStatus(info: TerminalInfo, now: number = Date.now()): string {
  const ending = describeEnding(info, now);
  return info.childrenRunning ? `${ending}, but processes it started are still running` : ending;
}

/** Whether the model still has something to stop. */
export function stillRunning(info: TerminalInfo): boolean {
  return info.status.state === "running" || info.childrenRunning;
}

function describeEnding(info: TerminalInfo, now: number): string {
  const elapsed = `${(((info.endedAt ?? now) - info.startedAt) / 1000).toFixed(1)} s`;
  const { status } = info;
  if (status.state === "running") return `running for ${elapsed}`;
  if (status.state === "killed") return `killed (${status.signal ?? "exit"}) after ${elapsed}`;
  if (status.code !== null) return `exited with code ${status.code} after ${elapsed}`;
  return `terminated by signal ${status.signal ?? "unknown"} after ${elapsed}`;
}

/** How the model reads and stops a background command; repeated where it learns the id. */
export function terminalUsageHint(id: string): string {
  return `Read new output with terminal_output {"id":"${id}"}; stop it with terminal_kill {"id":"${id}"}.`;
}

/** The report of one read: a headline, then each stream that has something to show. */
export function formatTerminalOutput(output: TerminalOutput, headline: string, emptyNote: string): string {
  const sections = [headline, `$ ${output.command}`];
  const stdout = streamSection("stdout", output.stdout);
  const stderr = streamSection("stderr", output.stderr);
  sections.push(...stdout, ...stderr);
  if (stdout.length === 0 && stderr.length === 0) sections.push(emptyNote);
  return sections.join("\n");
}

function streamSection(name: "stdout" | "stderr", read: RingRead): string[] {
  if (read.text === "" && read.droppedBytes === 0) return [];
  const lines = [`--- ${name} ---`];
  if (read.droppedBytes > 0) {
    lines.push(
      `[... ${read.droppedBytes.toLocaleString("en-US")} bytes of ${name} were dropped here: only the newest ` +
        "output of a background command is kept, so read it more often ...]",
    );
  }
  if (read.text !== "") lines.push(read.text.replace(/\n$/, ""));
  return lines;
}
