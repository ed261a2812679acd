import { readFileSync, writeFileSync } from "node:fs";
import type { ParseArgsOptionsConfig } from "node:util";
import {
  exportSession,
  generateSessionTitle,
  importSession,
  type SessionInfo,
  type SessionStore,
  uniquePrefixes,
} from "@lathe/core";
import { errorInfo, type LatheErrorInfo, type Message, type Part, type Usage } from "@lathe/protocol";
import { exitCodes } from "./exitCodes.js";
import { clientFor } from "./modelClients.js";
import { reportFailure, withSessionStore } from "./sessionDatabase.js";
import { type CommandIo, parseSubcommand, type SubcommandArgs } from "./subcommandArgs.js";
import { loadUserSettings } from "./userSettings.js";

export const sessionsUsage = `Usage: lathe sessions <command> [options]

Commands:
  list                     sessions of this project, most recent first (--all: every project)
  show ID                  a session's messages (with their ids), runs, usage and cost
  export ID [--out FILE]   the session as JSON lines (to stdout, or FILE)
  import FILE              a new session in this project from an export
  delete ID                remove a session and everything recorded of it
  fork ID [--at MESSAGE]   a new session with the conversation up to MESSAGE (default: all);
                           MESSAGE is a message id or unique prefix, as show prints it
  rename ID [TITLE]        set the title; without TITLE the fast model writes one

ID is a session id or a unique prefix of one; list and show print the shortest unique
prefix. Resume a session with lathe --resume ID.

Options:
      --cwd DIR              project directory (default: the current directory)
      --all                  list: every project
      --limit N              list: at most N sessions
      --json                 print JSON
  -h, --help                 this help
Exit codes: 0 done, 1 no such session or a bad file, 2 misuse.
`;

const sessionsOptions = {
  all: { type: "boolean" },
  limit: { type: "string" },
  out: { type: "string" },
  at: { type: "string" },
} as const satisfies ParseArgsOptionsConfig;

type Values = Extract<SubcommandArgs<typeof sessionsOptions>, { ok: true }>["values"];

/** `lathe sessions …`. Returns the exit code. */
export async function runSessionsCommand(io: CommandIo): Promise<number> {
  const args = parseSubcommand(io, "sessions", sessionsUsage, sessionsOptions);
  if (!args.ok) return args.code;
  const [command, ...rest] = args.positionals;
  if (command === undefined) return args.misuse("a command is required");
  return withSessionStore(io, "sessions", async (store, latheHome) => {
    const context: Context = {
      io,
      store,
      values: args.values,
      rest,
      projectRoot: args.projectRoot,
      latheHome,
    };
    switch (command) {
      case "list":
        return list(context);
      case "show":
        return withSession(context, (session) => show(context, session));
      case "export":
        return withSession(context, (session) => exportTo(context, session));
      case "import":
        return importFrom(context);
      case "delete":
        return withSession(context, (session) => {
          store.deleteSession(session.id);
          io.stdout(
            args.values.json ? `${JSON.stringify({ deleted: session.id })}\n` : `Deleted ${session.id}\n`,
          );
          return exitCodes.completed;
        });
      case "fork":
        return withSession(context, (session) => fork(context, session));
      case "rename":
        return withSession(context, (session) => rename(context, session));
      default:
        return args.misuse(`unknown command "${command}"`);
    }
  });
}

interface Context {
  io: CommandIo;
  store: SessionStore;
  values: Values;
  rest: string[];
  projectRoot: string;
  latheHome: string;
}

function failed(io: CommandIo, error: LatheErrorInfo): number {
  return reportFailure(io, "sessions", error);
}

async function withSession(
  context: Context,
  act: (session: SessionInfo) => number | Promise<number>,
): Promise<number> {
  const id = context.rest[0];
  if (id === undefined) {
    context.io.stderr(`lathe sessions: a session id is required\n\n${sessionsUsage}`);
    return exitCodes.usage;
  }
  const found = context.store.findSession(id);
  if (!found.ok) return failed(context.io, found.error);
  return act(found.value);
}

function list({ io, store, values, projectRoot }: Context): number {
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    io.stderr(`lathe sessions: --limit must be a positive whole number\n`);
    return exitCodes.usage;
  }
  const sessions = store.listSessions({
    projectRoot: values.all ? undefined : projectRoot,
    limit,
  });
  if (values.json) {
    io.stdout(`${JSON.stringify(sessions)}\n`);
    return exitCodes.completed;
  }
  if (sessions.length === 0) {
    io.stdout(values.all ? "No sessions yet.\n" : `No sessions in ${projectRoot} yet.\n`);
    return exitCodes.completed;
  }
  const shortIds = sessions.map((session) => store.shortSessionId(session.id));
  const width = Math.max(...shortIds.map((id) => id.length));
  for (const [index, session] of sessions.entries()) {
    const where = values.all ? `  ${session.projectRoot}` : "";
    io.stdout(
      `${shortIds[index]!.padEnd(width)}  ${timeOf(session.updatedAt)}  ${String(session.messageCount).padStart(4)} msgs  ${costOf(session.usage)}  ${session.title || "(untitled)"}${where}\n`,
    );
  }
  return exitCodes.completed;
}

function show({ io, store, values }: Context, session: SessionInfo): number {
  const messages = store.messages(session.id);
  const runs = store.runs(session.id);
  if (values.json) {
    const checkpoints = store.checkpoints(session.id);
    io.stdout(`${JSON.stringify({ session, runs, messages, checkpoints })}\n`);
    return exitCodes.completed;
  }
  const lines = [
    `Session ${session.id}  ${session.title || "(untitled)"}`,
    `Project ${session.projectRoot} · model ${session.model} · mode ${session.mode}`,
    `Created ${timeOf(session.createdAt)} · updated ${timeOf(session.updatedAt)}`,
    `Usage ${usageLine(session.usage)} over ${runs.length} run${runs.length === 1 ? "" : "s"}`,
    "",
    "Runs",
    ...runs.map(
      (run, index) =>
        `  ${index + 1}. ${run.status}  ${timeOf(run.startedAt)}${run.endedAt === undefined ? "" : ` – ${timeOf(run.endedAt)}`}  ${run.iterations} round${run.iterations === 1 ? "" : "s"}  ${run.durationMs === undefined ? "" : `${(run.durationMs / 1000).toFixed(1)} s  `}${usageLine(run.usage)}${run.errorCode ? `  ${run.errorCode}` : ""}`,
    ),
    "",
    "Messages",
    ...messageLines(messages),
  ];
  io.stdout(`${lines.join("\n")}\n`);
  return exitCodes.completed;
}

/** Each message's parts, the first one led by the message's unique id prefix (what `fork --at` takes). */
function messageLines(messages: readonly Message[]): string[] {
  const shortIds = uniquePrefixes(messages.map((message) => message.id));
  const width = Math.max(0, ...[...shortIds.values()].map((id) => id.length));
  return messages.flatMap((message) =>
    message.parts.map(
      (part, index) =>
        `  ${(index === 0 ? shortIds.get(message.id)! : "").padEnd(width)}${partLine(message, part)}`,
    ),
  );
}

function partLine(message: Message, part: Part): string {
  switch (part.type) {
    case "text":
      return `  [${message.role}] ${oneLine(part.text, 200)}`;
    case "reasoning":
      return `  [${message.role} thinking] ${oneLine(part.text, 120)}`;
    case "tool_call":
      return `  [${message.role}] → ${part.name} ${oneLine(part.rawArguments, 160)}`;
    case "tool_result":
      return `  [tool] ${part.name}: ${part.status}${part.error ? ` ${part.error.code}` : ""} (${part.output.length} chars)`;
    case "file":
      return `  [${message.role}] file ${part.path}`;
    case "system_reminder":
      return `  [${message.role} reminder] ${oneLine(part.text, 120)}`;
    case "compaction_summary":
      return `  [summary] ${oneLine(part.text, 160)}`;
  }
}

function exportTo({ io, store, values }: Context, session: SessionInfo): number {
  const exported = exportSession(store, session.id);
  if (!exported.ok) return failed(io, exported.error);
  if (values.out === undefined) {
    io.stdout(exported.value);
    return exitCodes.completed;
  }
  writeFileSync(values.out, exported.value, { mode: 0o600 });
  io.stdout(`Exported ${session.id} to ${values.out}\n`);
  return exitCodes.completed;
}

function importFrom({ io, store, rest, projectRoot, values }: Context): number {
  const file = rest[0];
  if (file === undefined) {
    io.stderr(`lathe sessions: import needs a file\n\n${sessionsUsage}`);
    return exitCodes.usage;
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    io.stderr(`lathe sessions: cannot read ${file}: ${error instanceof Error ? error.message : error}\n`);
    return exitCodes.error;
  }
  const imported = importSession(store, text, projectRoot);
  if (!imported.ok) return failed(io, imported.error);
  io.stdout(
    values.json ? `${JSON.stringify({ imported: imported.value })}\n` : `Imported as ${imported.value}\n`,
  );
  return exitCodes.completed;
}

function fork({ io, store, values }: Context, session: SessionInfo): number {
  const forked = store.fork(session.id, values.at);
  if (!forked.ok) return failed(io, forked.error);
  io.stdout(values.json ? `${JSON.stringify({ forked: forked.value })}\n` : `Forked as ${forked.value}\n`);
  return exitCodes.completed;
}

async function rename(context: Context, session: SessionInfo): Promise<number> {
  const { io, store, rest, values } = context;
  let title = rest.slice(1).join(" ").trim();
  if (!title) {
    const generated = await titleByModel(context, store.messages(session.id));
    if (!generated.ok) return failed(io, generated.error);
    title = generated.value;
  }
  store.rename(session.id, title);
  io.stdout(values.json ? `${JSON.stringify({ id: session.id, title })}\n` : `${session.id}  ${title}\n`);
  return exitCodes.completed;
}

/** The fast model (settings `fastModel`, else the main model) names the session. */
async function titleByModel(
  { io, latheHome }: Context,
  messages: readonly Message[],
): Promise<{ ok: true; value: string } | { ok: false; error: LatheErrorInfo }> {
  const loaded = loadUserSettings(latheHome);
  const settings = loaded.ok ? loaded.settings : {};
  const modelId = io.env.LATHE_FAST_MODEL ?? settings.fastModel ?? io.env.LATHE_MODEL ?? settings.model;
  if (!modelId) {
    return {
      ok: false,
      error: errorInfo(
        "E_INVALID_ARGS",
        "No title given and no model configured to write one: pass a TITLE or set fastModel in settings.json.",
      ),
    };
  }
  const client = clientFor(modelId, { settings, env: io.env, latheHome });
  if (!client.ok) return client;
  return generateSessionTitle(client.client, messages);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function timeOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

function costOf(usage: Usage): string {
  return `$${usage.costUsd.toFixed(4)}`;
}

function usageLine(usage: Usage): string {
  return `${usage.inputTokens.toLocaleString("en-US")} in · ${usage.outputTokens.toLocaleString("en-US")} out · ${costOf(usage)}`;
}
