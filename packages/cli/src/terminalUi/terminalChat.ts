import {
  type AgentSession,
  type ApprovalAnswer,
  type ApprovalRequest,
  type ApprovalScope,
  approvalModeSchema,
  lookupModel,
  type ModelClient,
  type UserQuestions,
  type WorkspaceTrust,
} from "@lathe/core";
import { errorInfo, type Mode, modeSchema } from "@lathe/protocol";
import type { Instance } from "ink";
import { gatedFilesText, trustReply } from "../trustReply.js";
import { approvalDetail, callTarget } from "./approvalDetail.js";
import { commandHelp, commandNames, completeCommand, parseSlashCommand } from "./slashCommands.js";
import type { TerminalControls } from "./TerminalApp.js";
import { TerminalState } from "./terminalState.js";
import { fromHistory, withEvent, withNotice, withUserMessage } from "./transcriptModel.js";

/** Shift+Tab goes round the modes in this order. */
const modeCycle: readonly Mode[] = ["agent", "plan", "ask", "debug"];
/** How long a first Ctrl+C at the idle prompt waits for the second. */
const secondInterruptMs = 2000;

const scopeNames: Record<ApprovalScope, string> = {
  session: "this session",
  "project-local": "this project",
  user: "every project",
};

/** The answer to an approval, kept in the transcript once its panel is gone. */
function decisionLine(request: ApprovalRequest, answer: ApprovalAnswer): string {
  const target = callTarget(request.arguments);
  const call = target ? `${request.name} ${target}` : request.name;
  if (answer.decision === "reject") return `Rejected ${call}${answer.message ? `: ${answer.message}` : "."}`;
  if (!answer.always) return `Allowed ${call}.`;
  return `Allowed ${call}, and from now on ${request.alwaysRules?.join(", ")} (${scopeNames[answer.always]}).`;
}

/** What the terminal UI needs of the engine's set-up beyond the session. */
export interface TerminalSetup {
  /** A client for another model, set up as the session's (`/model`). */
  modelFor(modelId: string): { ok: true; client: ModelClient } | { ok: false; message: string };
  /** What the user typed in this project before, oldest first (Up and Down); read only by the face that offers it. */
  inputHistory(): readonly string[];
}

/**
 * The interactive `lathe` on a terminal (SPEC §8): the session's events drawn as a transcript,
 * approvals, questions and the trust prompt as panels that take the keyboard, slash commands
 * handled here, and messages typed during a run queued for it. The engine's callbacks are fields,
 * handed to the engine before the session exists, as the plain chat's are.
 */
export class TerminalChat {
  private readonly state = new TerminalState();

  constructor() {
    // Raw at once, before the engine is set up and Ink starts: keys typed meanwhile wait unechoed
    // and reach the input as typed, Enter as Enter.
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
  }

  private instance?: Instance;
  private session?: AgentSession;
  private setup?: TerminalSetup;
  /** Sends not settled yet: a run is going on, or messages wait for one. */
  private inFlight = 0;
  private interruptedAt = 0;
  private readonly sent: string[] = [];
  private finished: () => void = () => {};

  readonly requestApproval = (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> =>
    new Promise((resolve) => {
      const opened = this.state.openPanel({
        kind: "approval",
        request,
        detail: approvalDetail(request.arguments),
        answer: (answer) => {
          this.say(decisionLine(request, answer));
          resolve(answer);
        },
      });
      signal.addEventListener("abort", () => {
        opened.withdraw();
        resolve({ decision: "reject" });
      });
    });

  /** Asked before the session starts, when the folder's gated files are not trusted. */
  readonly confirmTrust = async (trust: WorkspaceTrust): Promise<boolean> => {
    await this.mount();
    const reply = trustReply(trust);
    const text = `${trust.projectRoot} holds project files that run programs or grant permissions:\n${gatedFilesText(reply)}They take effect only if you trust this folder (\`lathe trust --revoke\` undoes it).`;
    return new Promise((resolve) => this.state.openPanel({ kind: "trust", text, answer: resolve }));
  };

  /** `ask_user`: each question as a panel, its options picked with the arrows or an answer typed. */
  readonly askUser: UserQuestions["ask"] = async (questions, { signal }) => {
    const answers: string[] = [];
    for (const { question, options } of questions) {
      const answer = await new Promise<string | undefined>((resolve) => {
        const opened = this.state.openPanel({
          kind: "question",
          question,
          options: options ?? [],
          answer: resolve,
        });
        signal.addEventListener("abort", () => {
          opened.withdraw();
          resolve(undefined);
        });
      });
      if (answer === undefined)
        return { ok: false, error: errorInfo("E_CANCELLED", "The question was not answered.") };
      answers.push(answer);
    }
    return { ok: true, answers };
  };

  /** Runs the UI until the user leaves; a resumed session's conversation is shown first. */
  async run(session: AgentSession, banner: string, setup: TerminalSetup): Promise<number> {
    this.session = session;
    this.setup = setup;
    // The resumed session's own messages are among the project's already.
    this.sent.push(...setup.inputHistory());
    this.state.update((view) => {
      const opened = withNotice(view.transcript, `${banner}\nType a task; /help lists the commands.`);
      return {
        ...view,
        transcript: { ...opened, items: [...opened.items, ...fromHistory(session.messages).items] },
      };
    });
    this.refreshStatus();
    const unsubscribe = session.subscribe((event) =>
      this.state.update((view) => ({ ...view, transcript: withEvent(view.transcript, event) })),
    );
    const done = new Promise<void>((resolve) => {
      this.finished = resolve;
    });
    // A closed terminal stops the run and its commands as Ctrl+C would, then Lathe exits.
    const hangUp = () => {
      session.cancel();
      this.finished();
    };
    process.once("SIGHUP", hangUp);
    await this.mount();
    await done;
    process.off("SIGHUP", hangUp);
    unsubscribe();
    this.instance?.unmount();
    await this.instance?.waitUntilExit();
    process.stdout.write(`Resume with lathe -r ${session.id}\n`);
    return 0;
  }

  private async mount(): Promise<void> {
    if (this.instance) return;
    // From its file at run time, never inlined into the start-up image: Ink's layout engine loads
    // with a top-level await, which the image's script cannot hold, and `lathe -p` needs none of it.
    const mounting: typeof import("./mountTerminalApp.js") = await import(
      new URL("./mountTerminalApp.js", import.meta.url).href
    );
    const { mountTerminalApp } = mounting;
    this.instance = mountTerminalApp(this.state, this.controls);
  }

  private readonly controls: TerminalControls = {
    submit: (text) => this.submit(text),
    stop: () => this.session?.cancel(),
    interrupt: () => {
      const now = Date.now();
      if (now - this.interruptedAt < secondInterruptMs) {
        this.finished();
        return;
      }
      this.interruptedAt = now;
      this.hint("Press Ctrl+C again to exit");
      setTimeout(() => this.hint(undefined), secondInterruptMs).unref();
    },
    exit: () => this.finished(),
    cycleMode: () => {
      const session = this.session;
      if (!session) return;
      const next = modeCycle[(modeCycle.indexOf(session.setup.mode) + 1) % modeCycle.length] ?? "agent";
      session.setMode(next);
      this.refreshStatus();
    },
    busy: () => this.inFlight > 0,
    history: () => this.sent,
    complete: (line) => {
      const custom = this.session?.commands.map((command) => command.name) ?? [];
      const completed = completeCommand(line, commandNames(custom));
      this.hint(completed.fits.length > 1 ? completed.fits.map((name) => `/${name}`).join("  ") : undefined);
      return completed.line;
    },
  };

  private submit(text: string): void {
    const session = this.session;
    if (!session) return;
    const command = parseSlashCommand(
      text,
      session.commands.map((custom) => custom.name),
    );
    if (command && command.kind !== "send") {
      this.runCommand(command, session);
      return;
    }
    this.sent.push(text);
    // During a run the session queues the message and says so; otherwise it starts one now.
    if (this.inFlight === 0)
      this.state.update((view) => ({ ...view, transcript: withUserMessage(view.transcript, text) }));
    this.inFlight++;
    void session.send(text).finally(() => {
      this.inFlight--;
    });
  }

  private runCommand(
    command: Exclude<ReturnType<typeof parseSlashCommand>, undefined>,
    session: AgentSession,
  ): void {
    if (command.kind === "exit") this.finished();
    else if (command.kind === "compact") void session.compact(command.focus);
    else {
      const reply = this.commandReply(command, session);
      if (reply) this.say(reply.text, reply.level);
    }
  }

  /** What a command that changes a setting or tells something says back. */
  private commandReply(
    command: Exclude<ReturnType<typeof parseSlashCommand>, undefined>,
    session: AgentSession,
  ): { text: string; level: "info" | "warning" } | undefined {
    const info = (text: string) => ({ text, level: "info" as const });
    switch (command.kind) {
      case "help": {
        const custom = session.commands.map((one) => `  /${one.name}  ${one.description}`);
        const own = commandHelp.map(([name, what]) => `  ${name}  ${what}`);
        return info(["Commands:", ...own, ...(custom.length > 0 ? ["Yours:", ...custom] : [])].join("\n"));
      }
      case "mode": {
        const mode = modeSchema.safeParse(command.value);
        if (!mode.success)
          return info(`Mode: ${session.setup.mode}. Modes: ${modeSchema.options.join(", ")}.`);
        session.setMode(mode.data);
        this.refreshStatus();
        return undefined;
      }
      case "approval": {
        const mode = approvalModeSchema.safeParse(command.value);
        if (!mode.success)
          return info(
            `Approval mode: ${session.setup.approvalMode}. Modes: ${approvalModeSchema.options.join(", ")}.`,
          );
        session.setApprovalMode(mode.data);
        this.refreshStatus();
        return undefined;
      }
      case "model": {
        if (command.value === undefined) return info(`Model: ${session.modelId}.`);
        const made = this.setup?.modelFor(command.value);
        if (!made?.ok) return { text: made?.message ?? "No model.", level: "warning" };
        session.setModel(made.client);
        this.refreshStatus();
        return info(`Model: ${session.modelId}, from the next request on.`);
      }
      case "cost": {
        const { inputTokens, outputTokens, costUsd } = session.usage;
        return info(
          `${inputTokens.toLocaleString("en-US")} tokens in, ${outputTokens.toLocaleString("en-US")} out: $${costUsd.toFixed(4)}.`,
        );
      }
      case "unknown":
        return { text: `Unknown command /${command.name}. /help lists the commands.`, level: "warning" };
      default:
        return undefined;
    }
  }

  /**
   * Something the set-up has to say (a warning, the sandbox missing): a notice once the UI is
   * drawn, so it does not cut into the drawing; stderr before.
   */
  report(text: string): void {
    if (this.instance) this.say(text.trim(), "warning");
    else process.stderr.write(text);
  }

  private say(text: string, level: "info" | "warning" = "info"): void {
    this.state.update((view) => ({ ...view, transcript: withNotice(view.transcript, text, level) }));
  }

  private hint(text: string | undefined): void {
    this.state.update((view) => ({ ...view, hint: text }));
  }

  private refreshStatus(): void {
    const session = this.session;
    if (!session) return;
    const { mode, approvalMode } = session.setup;
    this.state.update((view) => ({
      ...view,
      status: {
        model: session.modelId,
        mode: session.actingAs ?? mode,
        approvalMode,
        contextWindow: lookupModel(session.modelId).contextWindow,
      },
    }));
  }
}
