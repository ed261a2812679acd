import { createInterface, type Interface } from "node:readline/promises";
import type {
  AgentSession,
  ApprovalAnswer,
  ApprovalRequest,
  UserQuestions,
  WorkspaceTrust,
} from "@lathe/core";
import { errorInfo } from "@lathe/protocol";
import { textOutput } from "./output/textOutput.js";
import { gatedFilesText, trustReply } from "./trustReply.js";

/**
 * A line-based chat for terminals: type a message, watch the answer stream, answer approvals
 * with y / n (or a reason). Ctrl+C cancels a running turn; at the prompt it exits.
 */
export class InteractiveChat {
  private readonly rl: Interface;
  private session?: AgentSession;

  constructor() {
    this.rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  }

  /** Passed to the engine before the session exists, so approvals can prompt on this terminal. */
  readonly requestApproval = async (
    request: ApprovalRequest,
    signal: AbortSignal,
  ): Promise<ApprovalAnswer> => {
    const args = JSON.stringify(request.arguments);
    const rules = request.alwaysRules ?? [];
    // "Always" names the very rules it saves, and is not offered when no rule is narrow enough.
    const always = rules.length > 0 ? ` / [a]lways in this project (saves ${rules.join(", ")})` : "";
    const question = `\nAllow ${request.name} (${request.risk} risk) ${args.length > 200 ? `${args.slice(0, 197)}...` : args}?\n(${request.reason})\n[y]es${always} / [n]o / or type why not: `;
    const answer = (await this.rl.question(question, { signal }).catch(() => "n")).trim();
    if (answer === "" || /^y(es)?$/i.test(answer)) return { decision: "accept" };
    if (rules.length > 0 && /^a(lways)?$/i.test(answer))
      return { decision: "accept", always: "project-local" };
    if (/^n(o)?$/i.test(answer)) return { decision: "reject" };
    return { decision: "reject", message: answer };
  };

  /**
   * Asked once before the session starts when the folder's gated files are not trusted: the files,
   * what each would run or grant, then "Trust this folder? [y/N]". Anything but yes keeps them out.
   */
  readonly confirmTrust = async (trust: WorkspaceTrust): Promise<boolean> => {
    const reply = trustReply(trust);
    const changed =
      trust.status === "changed"
        ? `Changed since you trusted it: ${trust.changes.map((change) => `${change.path} (${change.change})`).join(", ")}.\n`
        : "";
    const question = `\n${trust.projectRoot} holds project files that run programs or grant permissions:\n${gatedFilesText(reply)}${changed}They take effect only if you trust this folder (\`lathe trust --revoke\` undoes it).\nTrust this folder? [y/N] `;
    const answer = (await this.rl.question(question).catch(() => "")).trim();
    return /^y(es)?$/i.test(answer);
  };

  /** `ask_user`: each question on this terminal, with its options numbered; a number picks one. */
  readonly askUser: UserQuestions["ask"] = async (questions, { signal }) => {
    const answers: string[] = [];
    for (const { question, options } of questions) {
      const choices = options?.map((option, index) => `  ${index + 1}. ${option}`).join("\n");
      const text = `\n${question}${choices ? `\n${choices}` : ""}\n> `;
      const answer = (await this.rl.question(text, { signal }).catch(() => undefined))?.trim();
      if (answer === undefined) {
        return { ok: false, error: errorInfo("E_CANCELLED", "The question was not answered.") };
      }
      const picked = options?.[Number(answer) - 1];
      answers.push(picked ?? answer);
    }
    return { ok: true, answers };
  };

  /** Something the set-up has to say: on stderr, between the lines of the chat. */
  report(text: string): void {
    process.stderr.write(text);
  }

  /** Runs the chat until the user leaves or the terminal closes. */
  async run(session: AgentSession, banner: string): Promise<number> {
    this.session = session;
    process.stdout.write(`${banner}\nType a task; /compact [focus] shortens the context; /exit quits.\n`);
    let running = false;
    this.rl.on("SIGINT", () => {
      if (running) this.session?.cancel();
      else this.rl.close();
    });
    // A closed terminal stops the run and its commands (process groups of their own), then the chat.
    const hangUp = () => {
      session.cancel();
      this.rl.close();
    };
    process.once("SIGHUP", hangUp);
    for (;;) {
      let line: string;
      try {
        line = (await this.rl.question("\n› ")).trim();
      } catch {
        break;
      }
      if (line === "/exit" || line === "/quit") break;
      if (!line) continue;
      if (line === "/compact" || line.startsWith("/compact ")) {
        await this.compact(session, line.slice("/compact".length).trim());
        continue;
      }
      running = true;
      const output = textOutput(session, {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
      const result = await session.send(line);
      output.finish(result);
      running = false;
    }
    process.off("SIGHUP", hangUp);
    this.rl.close();
    return 0;
  }

  /** `/compact [focus]`: shortens what is sent from now on; the stored conversation stays whole. */
  private async compact(session: AgentSession, focus: string): Promise<void> {
    const unsubscribe = session.subscribe((event) => {
      if (event.type === "compaction") {
        process.stdout.write(
          `Compacted: ${event.tokensBefore.toLocaleString("en-US")} → ${event.tokensAfter.toLocaleString("en-US")} tokens (${event.prunedOutputs} old outputs cut${event.summarized ? ", older turns summarized" : ""}).\n`,
        );
      }
      if (event.type === "notice") process.stderr.write(`${event.message}\n`);
    });
    await session.compact(focus || undefined);
    unsubscribe();
  }
}
