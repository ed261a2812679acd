import type { ParseArgsOptionsConfig } from "node:util";
import type { CheckpointRecord, SessionInfo, SessionStore } from "@lathe/core";
import type { LatheErrorInfo } from "@lathe/protocol";
import { checkpointRepositoryFor } from "./checkpointRepository.js";
import { restoreCheckpoint } from "./checkpointRestore.js";
import { exitCodes } from "./exitCodes.js";
import { reportFailure, sessionFor, withSessionStore } from "./sessionDatabase.js";
import { type CommandIo, parseSubcommand, type SubcommandArgs } from "./subcommandArgs.js";

export const checkpointsUsage = `Usage: lathe checkpoints <command> [options]

Lathe snapshots the project at every message you send and before every change it makes,
shell commands included; your own git repository is never touched.

Commands:
  list [SESSION]           checkpoints of a session (default: the latest of this project)
  diff CHECKPOINT          what changed in the project since the checkpoint
  restore CHECKPOINT       put the project back as it was at the checkpoint; for a
                           checkpoint taken at a message, the conversation goes back too
                           (to just before that message; the full one is kept as a fork)

CHECKPOINT is a checkpoint id, a unique prefix of one (list prints the shortest), or the
id of the user message it was taken at. SESSION is a session id or a unique prefix.

Options:
      --cwd DIR              project directory (default: the current directory)
      --code                 restore: the files only
      --conversation         restore: the conversation only
      --json                 print JSON
  -h, --help                 this help
Exit codes: 0 done, 1 no such checkpoint or the restore failed, 2 misuse.
`;

const checkpointsOptions = {
  code: { type: "boolean" },
  conversation: { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

type Values = Extract<SubcommandArgs<typeof checkpointsOptions>, { ok: true }>["values"];

interface Context {
  io: CommandIo;
  store: SessionStore;
  values: Values;
  latheHome: string;
}

/** `lathe checkpoints list | diff | restore`. Returns the exit code. */
export async function runCheckpointsCommand(io: CommandIo): Promise<number> {
  const args = parseSubcommand(io, "checkpoints", checkpointsUsage, checkpointsOptions);
  if (!args.ok) return args.code;
  const [command, ref] = args.positionals;
  if (command === undefined) return args.misuse("a command is required");
  if (args.values.code && args.values.conversation) {
    return args.misuse("--code and --conversation exclude each other");
  }
  return withSessionStore(io, "checkpoints", async (store, latheHome) => {
    const context: Context = { io, store, values: args.values, latheHome };
    switch (command) {
      case "list":
        return list(context, ref, args.projectRoot);
      case "diff":
      case "restore": {
        if (ref === undefined) return args.misuse(`${command} needs a checkpoint`);
        const found = store.findCheckpoint(ref);
        if (!found.ok) return failed(io, found.error);
        const session = store.findSession(found.value.sessionId);
        if (!session.ok) return failed(io, session.error);
        return command === "diff"
          ? diff(context, found.value, session.value)
          : restore(context, found.value, session.value);
      }
      default:
        return args.misuse(`unknown command "${command}"`);
    }
  });
}

function failed(io: CommandIo, error: LatheErrorInfo): number {
  return reportFailure(io, "checkpoints", error);
}

function list({ io, store, values }: Context, ref: string | undefined, projectRoot: string): number {
  const session = sessionFor(store, ref, projectRoot);
  if (!session.ok) return failed(io, session.error);
  const info = session.value;
  const checkpoints = store.checkpoints(info.id);
  if (values.json) {
    io.stdout(`${JSON.stringify({ session: info.id, checkpoints })}\n`);
    return exitCodes.completed;
  }
  const prompts = userPrompts(store, info.id);
  io.stdout(`Session ${info.id}  ${info.title || "(untitled)"}\n`);
  if (checkpoints.length === 0) io.stdout("No checkpoints.\n");
  const shortIds = new Map(
    checkpoints.map((checkpoint) => [checkpoint.id, store.shortCheckpointId(checkpoint.id)]),
  );
  const width = Math.max(0, ...[...shortIds.values()].map((id) => id.length));
  for (const checkpoint of checkpoints) {
    const at = new Date(checkpoint.createdAt).toISOString().slice(11, 19);
    const what =
      checkpoint.reason === "user_message"
        ? `before message: ${prompts.get(checkpoint.messageId ?? "") ?? ""}`
        : checkpoint.reason === "tool_call"
          ? `before tool call ${checkpoint.callId ?? ""}`
          : checkpoint.reason === "before_reject"
            ? "before rejecting changes"
            : checkpoint.reason === "before_apply"
              ? "before applying a cloud task"
              : "before a restore";
    io.stdout(`${shortIds.get(checkpoint.id)!.padEnd(width)}  ${at}  ${what}\n`);
  }
  return exitCodes.completed;
}

/** The first line of each user message, by message id, to say what a checkpoint came before. */
function userPrompts(store: SessionStore, sessionId: string): Map<string, string> {
  const prompts = new Map<string, string>();
  for (const message of store.messages(sessionId)) {
    if (message.role !== "user") continue;
    const text = message.parts.find((part) => part.type === "text")?.text ?? "";
    const line = text.split("\n")[0] ?? "";
    prompts.set(message.id, line.length > 70 ? `${line.slice(0, 69)}…` : line);
  }
  return prompts;
}

async function diff(context: Context, checkpoint: CheckpointRecord, session: SessionInfo): Promise<number> {
  const { io, values } = context;
  const shadow = await checkpointRepositoryFor(context.latheHome, session.projectRoot);
  if (!shadow.ok) return failed(io, shadow.error);
  const changes = await shadow.value.diff(checkpoint.commit);
  if (!changes.ok) return failed(io, changes.error);
  if (values.json) {
    io.stdout(`${JSON.stringify({ checkpoint: checkpoint.id, ...changes.value })}\n`);
    return exitCodes.completed;
  }
  if (changes.value.files.length === 0) {
    io.stdout("No changes since this checkpoint.\n");
    return exitCodes.completed;
  }
  io.stdout(changes.value.patch.endsWith("\n") ? changes.value.patch : `${changes.value.patch}\n`);
  return exitCodes.completed;
}

async function restore(
  context: Context,
  checkpoint: CheckpointRecord,
  session: SessionInfo,
): Promise<number> {
  const { io, store, values, latheHome } = context;
  const restored = await restoreCheckpoint({
    store,
    latheHome,
    checkpoint,
    session,
    code: !values.conversation,
    conversation: !values.code,
  });
  if (!restored.ok) return failed(io, restored.error);
  const { code, conversation } = restored.value;
  const report = { checkpoint: checkpoint.id, session: session.id, ...code, ...conversation };
  const lines: string[] = [];
  if (code) {
    for (const note of code.recovered) io.stderr(`lathe: ${note}\n`);
    lines.push(
      `Restored ${session.projectRoot}: ${code.written.length} file(s) written back, ${code.removed.length} removed.`,
    );
    if (code.refused.length > 0) {
      lines.push(`Left alone, a symlink being on the way: ${code.refused.join(", ")}`);
    }
  }
  if (conversation) {
    lines.push(
      `Conversation back to before that message: ${conversation.messagesRemoved} message(s) removed; the full conversation is kept as session ${conversation.backupSession}.`,
    );
  }
  io.stdout(values.json ? `${JSON.stringify(report)}\n` : `${lines.join("\n")}\n`);
  return exitCodes.completed;
}
