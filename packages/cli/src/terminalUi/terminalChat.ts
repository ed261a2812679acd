import { enableCompileCache } from "node:module";
import {
  type AgentSession,
  type ApprovalAnswer,
  type ApprovalMode,
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
import type { SwitchableEngine } from "../switchableEngine.js";
import { gatedFilesText, trustReply } from "../trustReply.js";
import { approvalDetail, approvalDiff, callTarget } from "./approvalDetail.js";
import { CloudSlashCommand } from "./cloudSlashCommand.js";
import { mentionCandidates } from "./mentionCandidates.js";
import {
  checkpointList,
  mcpList,
  type ProjectTrustState,
  sessionList,
  trustStatus,
} from "./sessionListings.js";
import { isSessionChange, openSessionInstead, type SessionChange } from "./sessionSwitch.js";
import { commandHelp, commandNames, completeCommand, parseSlashCommand } from "./slashCommands.js";
import type { TerminalControls } from "./TerminalApp.js";
import { TerminalState } from "./terminalState.js";
import { fromHistory, withEvent, withNotice, withUserMessage } from "./transcriptModel.js";

type Command = Exclude<ReturnType<typeof parseSlashCommand>, undefined>;

/** What the terminal UI's bundle exports: the app, and the layout engine compiling as it loads. */
type TerminalAppBundle = typeof import("./mountTerminalApp.js") & { layoutEngineReady: Promise<void> };

/** Shift+Tab goes round the modes in this order. */
const modeCycle: readonly Mode[] = ["agent", "plan", "ask", "debug"];
/**
 * Ctrl+Y goes round these approval modes. Not yolo: a key pressed by mistake must not let
 * everything run unasked; `/approval yolo` says it in words.
 */
const approvalCycle: readonly ApprovalMode[] = ["manual", "ask_first", "auto_edit", "auto"];
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

/** What the terminal UI needs of the engine's set-up. */
export interface TerminalSetup {
  /** The session, and the means to open another in its place. */
  engine: SwitchableEngine;
  /** A client for another model, set up as the session's (`/model`). */
  modelFor(modelId: string): { ok: true; client: ModelClient } | { ok: false; message: string };
  /** What the user typed in this project before, oldest first (Up and Down); read only by the face that offers it. */
  inputHistory(): readonly string[];
  /** The models `/model` offers: the session's first. */
  modelChoices(): string[];
  /** Whether commands run in the sandbox, for the status line. */
  sandbox: boolean;
  /** Whether the folder's gated files are trusted now, for `/trust`. */
  projectTrust(): ProjectTrustState;
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
    // A bundle that fails to load is reported where the UI is mounted; a run that ends before
    // (a set-up error) has said why already.
    this.app.catch(() => {});
  }

  /**
   * The UI with Ink and React, bundled into one module at build time
   * (scripts/bundle-terminal-ui.mjs), loaded only by this face: `lathe -p` needs none of it. It
   * loads as soon as the engine's set-up first waits on the disk, and its layout engine compiles
   * on V8's threads meanwhile. Its compiled code is cached on disk between starts.
   */
  private readonly app: Promise<TerminalAppBundle> = new Promise((resolve, reject) =>
    setImmediate(() => {
      enableCompileCache?.();
      import(new URL("./terminalApp.bundle.js", import.meta.url).href).then(resolve, reject);
    }),
  );

  private instance?: Instance;
  private session?: AgentSession;
  /**
   * What was typed before the session existed: the prompt is up while the engine still starts
   * (after the trust question, say), and a message sent then is sent once the session is there.
   */
  private readonly early: string[] = [];
  private setup?: TerminalSetup;
  /** Sends not settled yet: a run is going on, or messages wait for one. */
  private inFlight = 0;
  private interruptedAt = 0;
  /** A session is being ended and another opened: nothing is sent meanwhile. */
  private switching = false;
  private readonly sent: string[] = [];
  private finished: () => void = () => {};
  /** `/cloud`; its watch streams in the background, each event drawn with the next frame. */
  private readonly cloud = new CloudSlashCommand({
    show: (text, level) =>
      this.state.updateSoon((view) => ({ ...view, transcript: withNotice(view.transcript, text, level) })),
    projectRoot: () => this.setup?.engine.current.projectRoot,
    // As `lathe cloud` gets it: LATHE_DATABASE_URL names the task database.
    env: process.env,
  });

  readonly requestApproval = (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> =>
    new Promise((resolve) => {
      const opened = this.state.openPanel({
        kind: "approval",
        request,
        diff: approvalDiff(request.arguments),
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
  async run(banner: string, setup: TerminalSetup): Promise<number> {
    this.setup = setup;
    // The resumed session's own messages are among the project's already.
    this.sent.push(...setup.inputHistory());
    this.say(`${banner}\nType a task; /help lists the commands.`);
    this.attach(setup.engine.session, true);
    const done = new Promise<void>((resolve) => {
      this.finished = resolve;
    });
    // A closed terminal stops the run and its commands as Ctrl+C would, then Lathe exits.
    const hangUp = () => {
      this.session?.cancel();
      this.finished();
    };
    process.once("SIGHUP", hangUp);
    await this.mount();
    await done;
    process.off("SIGHUP", hangUp);
    this.cloud.stopWatching();
    this.unsubscribe();
    this.instance?.unmount();
    await this.instance?.waitUntilExit();
    if (this.session) process.stdout.write(`Resume with lathe -r ${this.session.id}\n`);
    return this.session ? 0 : 1;
  }

  /**
   * Follows a session's events from now on; `shown` when its conversation is new on screen (a
   * resumed session), not when it goes on from what is there already (`/undo`, `/trust`).
   */
  private attach(session: AgentSession, shown = false): void {
    this.unsubscribe();
    this.session = session;
    if (shown) this.state.showHistory(fromHistory(session.messages).items);
    this.refreshStatus();
    this.unsubscribe = session.subscribe((event) =>
      this.state.updateSoon((view) => ({ ...view, transcript: withEvent(view.transcript, event) })),
    );
    for (const text of this.early.splice(0)) this.submit(text);
  }

  private unsubscribe: () => void = () => {};

  private async mount(): Promise<void> {
    if (this.instance) return;
    const mounting = await this.app;
    await mounting.layoutEngineReady;
    this.instance = mounting.mountTerminalApp(this.state, this.controls);
  }

  private readonly controls: TerminalControls = {
    submit: (text) => this.submit(text),
    // A watch first: stopping it loses nothing (the task goes on), a second Esc stops the run.
    stop: () => {
      if (!this.cloud.stopWatching()) this.session?.cancel();
    },
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
    cycleApprovalMode: () => {
      const session = this.session;
      if (!session) return;
      const at = approvalCycle.indexOf(session.setup.approvalMode);
      session.setApprovalMode(approvalCycle[(at + 1) % approvalCycle.length] ?? "ask_first");
      this.refreshStatus();
    },
    busy: () => this.inFlight > 0 || this.cloud.watching,
    history: () => this.sent,
    complete: (line) => {
      const custom = this.session?.commands.map((command) => command.name) ?? [];
      const completed = completeCommand(line, commandNames(custom));
      this.hint(completed.fits.length > 1 ? completed.fits.map((name) => `/${name}`).join("  ") : undefined);
      return completed.line;
    },
    completeMention: (query) => {
      const projectRoot = this.setup?.engine.current.projectRoot;
      return projectRoot === undefined ? Promise.resolve([]) : mentionCandidates(projectRoot, query);
    },
  };

  private submit(text: string): void {
    const session = this.session;
    if (!session) {
      this.early.push(text);
      return;
    }
    if (this.switching) {
      this.say("One moment: the session is being opened.", "warning");
      return;
    }
    const command = parseSlashCommand(
      text,
      session.commands.map((custom) => custom.name),
    );
    if (command && command.kind !== "send") {
      this.runCommand(command, text.trim(), session);
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

  /** A command is kept in the transcript as typed, and what it says back follows it. */
  private runCommand(command: Command, commandLine: string, session: AgentSession): void {
    this.state.update((view) => ({ ...view, transcript: withUserMessage(view.transcript, commandLine) }));
    if (command.kind === "exit") this.finished();
    else if (command.kind === "compact") void session.compact(command.focus);
    else if (isSessionChange(command)) void this.changeSession(command, session);
    else if (command.kind === "model" && command.value === undefined) void this.pickModel(session);
    else if (command.kind === "cloud") this.cloud.run(command.args);
    else {
      const reply = this.commandReply(command, session);
      if (reply) this.say(reply.text, reply.level);
    }
  }

  /**
   * `/undo`, `/resume ID`, `/clear`, `/trust`: the engine is set up again for the session asked
   * for, which is shown as `lathe -r` shows it. Not during a run: the user decides what to stop.
   */
  private async changeSession(command: SessionChange, session: AgentSession): Promise<void> {
    const engine = this.setup?.engine;
    if (!engine) return;
    if (command.kind === "resume" && command.value === undefined) {
      this.say(sessionList(engine, session.id));
      return;
    }
    if (this.inFlight > 0) {
      this.say(
        `Stop the run first (Esc), or wait for it to end: /${command.kind} ends this session.`,
        "warning",
      );
      return;
    }
    const trust = command.kind === "trust" ? this.setup?.projectTrust() : undefined;
    if (trust === "trusted" || trust === "not_needed") {
      this.say(trustStatus[trust]);
      return;
    }
    this.switching = true;
    this.unsubscribe();
    try {
      const changed = await openSessionInstead(command, engine, session);
      if (!changed.ok && changed.lost) {
        this.session = undefined;
        this.say(`${changed.message} Lathe has to stop.`, "warning");
        this.finished();
        return;
      }
      this.say(changed.ok ? changed.said : changed.message, changed.ok ? "info" : "warning");
      if (changed.ok) this.attach(changed.session, command.kind === "resume");
      else this.attach(engine.session);
      if (changed.ok && changed.draft) this.state.update((view) => ({ ...view, draft: changed.draft }));
    } finally {
      this.switching = false;
    }
  }

  /** `/model` alone: the models to switch to, picked with the arrows (or one typed). */
  private async pickModel(session: AgentSession): Promise<void> {
    const choices = this.setup?.modelChoices() ?? [session.modelId];
    const picked = await new Promise<string>((resolve) =>
      this.state.openPanel({
        kind: "question",
        question: `Model: ${session.modelId}. Switch to:`,
        options: choices,
        answer: resolve,
      }),
    );
    if (picked === session.modelId) return this.say(`Model: ${session.modelId}, as before.`);
    const reply = this.switchModel(picked, session);
    this.say(reply.text, reply.level);
  }

  private switchModel(modelId: string, session: AgentSession): { text: string; level: "info" | "warning" } {
    const made = this.setup?.modelFor(modelId);
    if (!made?.ok) return { text: made?.message ?? "No model.", level: "warning" };
    session.setModel(made.client);
    this.refreshStatus();
    return { text: `Model: ${session.modelId}, from the next request on.`, level: "info" };
  }

  /** What a command that changes a setting or tells something says back. */
  private commandReply(
    command: Command,
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
      case "model":
        return command.value === undefined ? undefined : this.switchModel(command.value, session);
      case "cost": {
        const { inputTokens, outputTokens, costUsd } = session.usage;
        return info(
          `${inputTokens.toLocaleString("en-US")} tokens in, ${outputTokens.toLocaleString("en-US")} out: $${costUsd.toFixed(4)}.`,
        );
      }
      case "checkpoints":
        return this.setup ? info(checkpointList(this.setup.engine, session)) : undefined;
      case "sessions":
        return this.setup ? info(sessionList(this.setup.engine, session.id)) : undefined;
      case "mcp":
        return this.setup ? info(mcpList(this.setup.engine, session)) : undefined;
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
        sandbox: this.setup?.sandbox ?? false,
      },
    }));
  }
}
