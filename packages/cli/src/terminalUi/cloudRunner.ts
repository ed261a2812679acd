// `lathe cloud`'s commands as the terminal UI's `/cloud` runs them, in this process, their output
// into the transcript. Loaded with `import()` on the first `/cloud`: the task database's client
// and the job queue are no part of the terminal UI's start.
import { parseArgs } from "node:util";
import type { TaskEvent } from "@lathe/cloud";
import { cloudUsage, runCloudCommand } from "../cloud/cloudCommand.js";
import { cloudOptions } from "../cloud/cloudContext.js";
import { eventLine } from "../cloud/cloudOutput.js";
import type { CommandIo } from "../subcommandArgs.js";

export type NoticeLevel = "info" | "warning" | "error";

/** Where a command runs and what it says goes. */
export interface CloudPlace {
  /** The session's project: tasks are sent from it and applied to it. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** One piece of output, as a line (or lines) of the transcript. */
  show(text: string, level: NoticeLevel): void;
}

/** `lathe cloud WORDS`: its exit code, and what it wrote on stdout (shown as it came). */
export async function runCloud(
  words: string[],
  place: CloudPlace,
): Promise<{ code: number; stdout: string }> {
  let printed = "";
  const code = await runCloudCommand(
    commandIo(words, place, (text) => {
      printed += text;
      shown(place, text, "info");
    }),
  );
  return { code, stdout: printed };
}

/**
 * `submit`, run as `lathe cloud submit` runs it (the router's target and reason on the way); once
 * the task is queued, the words that watch it: its id, with the database, device and project the
 * submit used. Undefined when nothing was queued (the command said why).
 */
export async function submitCloud(words: string[], place: CloudPlace): Promise<string[] | undefined> {
  const submitted = await runCloud(words, place);
  if (submitted.code !== 0) return undefined;
  const id = submittedId(submitted.stdout);
  if (id === undefined) return undefined;
  const { values } = parseArgs({
    args: words,
    options: { ...cloudOptions, cwd: { type: "string" } },
    allowPositionals: true,
    strict: false,
  });
  const same = (["database", "device", "cwd"] as const).flatMap((name) => {
    const value = values[name];
    return typeof value === "string" ? [`--${name}`, value] : [];
  });
  // The whole id: a prefix could come to name two tasks.
  return ["watch", id, ...same];
}

/**
 * `watch`: the task's events into the transcript as `lathe cloud watch` prints them, each once and
 * in order, until the task ends or `signal` stops the watch (the task goes on). A question the task
 * waits on is pointed out with the command that answers it. The events are read as JSON, so a
 * question is told by its kind, not by its wording; asked for JSON, the user gets it as it comes.
 */
export async function watchTask(words: string[], place: CloudPlace, signal: AbortSignal): Promise<void> {
  let short = (words[1] ?? "").slice(0, 8);
  if (words.includes("--json")) {
    await runCloudCommand(commandIo(words, place, (text) => shown(place, text, "info"), signal));
    return;
  }
  let status: string | undefined;
  let found = false;
  const print = (text: string) => {
    const lines = text.split("\n").filter((line) => line !== "");
    const events = lines.map(eventFrom);
    if (!events.every((event) => event !== undefined)) return shown(place, text, "info");
    for (const event of events) {
      short = event.taskId.slice(0, 8);
      // Said with the first event, once the task is known to be there.
      if (!found) place.show(`Watching task ${short}: Esc stops watching (the task goes on).`, "info");
      found = true;
      place.show(eventLine(event), levels[event.level] ?? "info");
      if (event.kind === "question")
        place.show(
          `Task ${short} waits for an answer: /cloud answer ${short} --allow (or --deny).`,
          "warning",
        );
      const said = (event.data as { status?: unknown } | null)?.status;
      if (event.kind === "status" && typeof said === "string") status = said;
    }
  };
  await runCloudCommand(commandIo([...words, "--json"], place, print, signal));
  if (signal.aborted)
    place.show(
      `Stopped watching task ${short}; it goes on (/cloud watch ${short} follows it again).`,
      "info",
    );
  else if (status === "completed")
    place.show(
      `Task ${short} completed: /cloud show ${short} shows its result, /cloud apply ${short} applies its patch here.`,
      "info",
    );
  else if (status === "failed") place.show(`Task ${short} failed: /cloud show ${short} says why.`, "warning");
  else if (status === "cancelled") place.show(`Task ${short} was cancelled.`, "warning");
}

const levels: Record<string, NoticeLevel> = { info: "info", warn: "warning", error: "error" };

function commandIo(
  words: string[],
  place: CloudPlace,
  stdout: (text: string) => void,
  signal?: AbortSignal,
): CommandIo {
  return {
    argv: words,
    cwd: place.cwd,
    env: place.env,
    signal,
    stdout,
    // What the command complains about begins with its name; a coded error ends with its code.
    stderr: (text) =>
      shown(
        place,
        withoutUsage(text),
        /\[E_[A-Z0-9_]+\]$/m.test(text) ? "error" : text.startsWith("lathe cloud:") ? "warning" : "info",
      ),
  };
}

function shown(place: CloudPlace, text: string, level: NoticeLevel): void {
  const trimmed = text.replace(/\s+$/, "");
  if (trimmed !== "") place.show(trimmed, level);
}

/** A misuse is said with the whole usage after it: in the transcript, a pointer to it instead. */
function withoutUsage(text: string): string {
  if (text === cloudUsage || !text.endsWith(cloudUsage)) return text;
  return `${text.slice(0, -cloudUsage.length).trimEnd()}\n/cloud --help lists the commands and their flags.`;
}

/** One line of `watch --json`: an event, its time made a Date again; undefined for other text. */
function eventFrom(line: string): TaskEvent | undefined {
  try {
    const parsed = JSON.parse(line) as Omit<TaskEvent, "createdAt"> & { createdAt?: unknown };
    if (typeof parsed.taskId !== "string" || typeof parsed.createdAt !== "string") return undefined;
    return { ...parsed, createdAt: new Date(parsed.createdAt) };
  } catch {
    return undefined;
  }
}

/** The task `submit` queued: the id it prints, or the `id` of its JSON. */
function submittedId(stdout: string): string | undefined {
  const text = stdout.trim();
  if (/^[0-9a-f-]{36}$/.test(text)) return text;
  try {
    const parsed = JSON.parse(text) as { id?: unknown };
    return typeof parsed.id === "string" ? parsed.id : undefined;
  } catch {
    return undefined;
  }
}
