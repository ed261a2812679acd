import { parseArgs } from "node:util";
import { type ApprovalMode, approvalModeSchema, latheToolName, parseRule } from "@lathe/core";
import { type Mode, modeSchema } from "@lathe/protocol";
import { splitToolList, takeIgnoredClaudeFlags } from "./agentSdk/claudeFlags.js";
import {
  type ClaudePermissionMode,
  claudePermissionModes,
  fromClaudePermissionMode,
  isClaudePermissionMode,
} from "./agentSdk/permissionModes.js";
import { planPromptFrom } from "./planArgument.js";

export type OutputFormat = "text" | "json" | "stream-json";

export interface CliArgs {
  help: boolean;
  version: boolean;
  /** Headless when a prompt is given with -p or `--plan`, or when stdin is not a terminal. */
  print: boolean;
  prompt?: string;
  cwd: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  mode?: Mode;
  approvalMode?: ApprovalMode;
  maxIterations?: number;
  outputFormat: OutputFormat;
  /** `--allow` / `--deny` permission rules: the CLI layer, above every settings file (SPEC §5). */
  allowRules: string[];
  denyRules: string[];
  /** `--trust`: trust the folder's project hooks, MCP servers, allow rules and agents, and record it. */
  trust: boolean;
  /** `--resume [ID]`: a stored session by id or prefix, or "latest" without one; `--continue` is "latest". */
  resume?: string;
  /** `--input-format stream-json`: user messages and control requests as NDJSON on stdin (the Claude Agent SDK). */
  inputFormat: "text" | "stream-json";
  /** `--include-partial-messages`: the model's stream as `stream_event` lines in stream-json. */
  includePartialMessages: boolean;
  /** `--permission-prompt-tool stdio`: approvals go to the driving program as control requests. */
  permissionPromptTool?: "stdio";
  /** `--permission-mode` in Claude Code's names; it sets the mode and approval mode. */
  claudePermissionMode?: ClaudePermissionMode;
  /** `--append-system-prompt`: text sent with every request, as a rule from the user's settings is. */
  appendSystemPrompt?: string;
  /** `--tools`: only these tools are offered to the model (Claude Code's names read as Lathe's). */
  tools?: string[];
  /** Claude Code flags that were given and that Lathe accepts without acting on them. */
  ignoredFlags: string[];
}

/** A session id or a prefix of one, as `--resume` takes it (so `--resume "fix it"` is not mistaken for an id). */
const sessionIdPrefix = /^[0-9a-f][0-9a-f-]{5,35}$/i;

/** `--resume` takes an optional value, which parseArgs cannot express: it is taken out first. */
function takeResume(argv: readonly string[]): { rest: string[]; resume?: string } {
  const rest: string[] = [];
  let resume: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith("--resume=")) {
      resume = arg.slice("--resume=".length) || "latest";
      continue;
    }
    if (arg === "--resume" || arg === "-r") {
      const next = argv[i + 1];
      if (next !== undefined && sessionIdPrefix.test(next)) {
        resume = next;
        i++;
      } else {
        resume = "latest";
      }
      continue;
    }
    if (arg === "--continue" || arg === "-c") {
      resume = "latest";
      continue;
    }
    rest.push(arg);
  }
  return { rest, resume };
}

export type ParsedArgs = { ok: true; args: CliArgs } | { ok: false; message: string };

export const usage = `Usage: lathe [options] [prompt]

Lathe is a coding agent: give it a task and it reads and changes your code through tools.

  lathe                      interactive chat in the terminal
  lathe -p "task"            headless run: do the task, print the result, exit
  lathe tool NAME --args JSON  run one tool, print its result as JSON (lathe tool --help)
  lathe policy rules|check    list permission rules, judge a call (lathe policy --help)
  lathe trust [DIR]           trust a folder's hooks, MCP servers, allow rules, agents (lathe trust --help)
  lathe sessions list|show|export|import|delete|fork|rename   stored sessions
  lathe checkpoints list|diff|restore   snapshots of the project taken before changes
  lathe trace SESSION         the span tree of a session's runs, with timings
  lathe serve [--port N]      the local server for the web UI and other clients
  lathe eval [--model M]      the evaluation cases, scripted or against a real model
  lathe models                the model catalog and the providers with a key (lathe models --help)
  lathe config [get|set|unset]  settings in effect and where each comes from (lathe config --help)
  lathe mcp list|tools|add|remove   MCP servers, their state and their tools (lathe mcp --help)
  lathe acp                   the Agent Client Protocol over stdio, for editors (Zed, JetBrains…)
  lathe cloud up|submit|list|show|watch|logs|cancel|retry|answer|apply|down   tasks for a fleet
  lathe worker                run cloud tasks from the task database (lathe worker --help)

Options:
  -p, --print                run headless (the prompt is the argument, or stdin)
      --cwd DIR              project directory (default: the current directory)
      --model PROVIDER:MODEL openai | anthropic | google | deepseek | openai-compatible | ollama
      --base-url URL         override the provider's base URL
      --api-key KEY          API key for this run (prefer env vars or credentials.json)
      --mode MODE            agent (default) | ask | plan | debug
      --approval-mode MODE   manual | ask_first (default) | auto_edit | auto | yolo
      --max-iterations N     tool rounds per message before stopping (default 25)
      --allow RULE           allow rule for this run, e.g. 'run_terminal_cmd(npm test *)' (repeatable)
      --deny RULE            deny rule for this run (repeatable); deny beats allow
      --trust                trust this folder's project hooks, MCP servers, allow rules and
                             agents as they are now, and remember it (see lathe trust)
      --output-format FMT    text (default) | json | stream-json
      --input-format FMT     text (default) | stream-json: user messages and control requests as
                             NDJSON on stdin, as the Claude Agent SDK sends them (see README)
      --include-partial-messages  stream-json: the model's stream as stream_event lines too
      --permission-mode MODE Claude Code's names: default | acceptEdits | bypassPermissions | plan | dontAsk | auto
      --permission-prompt-tool stdio  stream-json: approvals asked of the driving program
      --append-system-prompt TEXT  instructions sent with every request (as a rule in settings)
      --tools LIST           only these tools are offered, separated by commas (Claude Code's
                             names too: Read,Grep); "" offers none, "default" every tool
      --allowedTools LIST    Claude Code's spelling of --allow: rules separated by commas
      --disallowedTools LIST Claude Code's spelling of --deny
      --plan FILE            run a plan saved by plan mode (.lathe/plans/…) in agent mode, headless
  -r, --resume [ID]          continue a stored session (by id or prefix; the latest without one)
  -c, --continue             continue the latest session of this project
  -v, --version              print the version
  -h, --help                 print this help

Exit codes: 0 completed, 1 error, 2 usage, 3 iteration limit, 4 cancelled,
5 denied by policy, 6 provider authentication error.
`;

export function parseCliArgs(argv: string[], cwd: string): ParsedArgs {
  const claude = takeIgnoredClaudeFlags(argv);
  const { rest, resume } = takeResume(claude.rest);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(rest);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  const outputFormat = values["output-format"] ?? "text";
  if (outputFormat !== "text" && outputFormat !== "json" && outputFormat !== "stream-json") {
    return { ok: false, message: `--output-format must be text, json or stream-json, not "${outputFormat}"` };
  }
  const inputFormat = values["input-format"] ?? "text";
  if (inputFormat !== "text" && inputFormat !== "stream-json") {
    return { ok: false, message: `--input-format must be text or stream-json, not "${inputFormat}"` };
  }
  if (inputFormat === "stream-json" && outputFormat !== "stream-json") {
    return { ok: false, message: "--input-format stream-json needs --output-format stream-json" };
  }
  const promptTool = values["permission-prompt-tool"];
  if (promptTool !== undefined && promptTool !== "stdio") {
    return {
      ok: false,
      message: `--permission-prompt-tool takes only "stdio" (approvals as control requests)`,
    };
  }
  const claudeMode = values["permission-mode"];
  if (claudeMode !== undefined && !isClaudePermissionMode(claudeMode)) {
    return { ok: false, message: `--permission-mode must be one of ${claudePermissionModes.join(", ")}` };
  }
  const fromClaude = claudeMode === undefined ? undefined : fromClaudePermissionMode(claudeMode);
  const mode = values.mode === undefined ? undefined : modeSchema.safeParse(values.mode);
  if (mode && !mode.success)
    return { ok: false, message: `--mode must be one of ${modeSchema.options.join(", ")}` };
  const approval =
    values["approval-mode"] === undefined ? undefined : approvalModeSchema.safeParse(values["approval-mode"]);
  if (approval && !approval.success) {
    return { ok: false, message: `--approval-mode must be one of ${approvalModeSchema.options.join(", ")}` };
  }
  let maxIterations: number | undefined;
  const iterationCap = values["max-iterations"] ?? values["max-turns"];
  if (iterationCap !== undefined) {
    maxIterations = Number(iterationCap);
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      return { ok: false, message: "--max-iterations (--max-turns) must be a positive whole number" };
    }
  }
  // Claude Code's tool lists are rules too (its tool names are Lathe's tools' aliases).
  const allowRules = [
    ...(values.allow ?? []),
    ...[...(values.allowedTools ?? []), ...(values["allowed-tools"] ?? [])].flatMap(splitToolList),
  ];
  const denyRules = [
    ...(values.deny ?? []),
    ...[...(values.disallowedTools ?? []), ...(values["disallowed-tools"] ?? [])].flatMap(splitToolList),
  ];
  for (const [flag, rules] of [
    ["--allow", allowRules],
    ["--deny", denyRules],
  ] as const) {
    for (const rule of rules) {
      const parsedRule = parseRule(rule, flag === "--allow" ? "allow" : "deny", "cli");
      if (!parsedRule.ok) return { ok: false, message: `${flag}: ${parsedRule.message}` };
    }
  }
  const typed = positionals.length > 0 ? positionals.join(" ") : undefined;
  const plan = values.plan === undefined ? undefined : planRun(values.plan, typed, mode?.data, cwd);
  if (plan && !plan.ok) return plan;
  const prompt = plan?.prompt ?? typed;
  return {
    ok: true,
    args: {
      help: values.help ?? false,
      version: values.version ?? false,
      print: (values.print ?? false) || plan !== undefined,
      prompt,
      cwd: values.cwd ?? cwd,
      model: values.model,
      baseUrl: values["base-url"],
      apiKey: values["api-key"],
      mode: plan ? (mode?.data ?? "agent") : (mode?.data ?? fromClaude?.mode),
      approvalMode: approval?.data ?? fromClaude?.approvalMode,
      maxIterations,
      outputFormat,
      allowRules,
      denyRules,
      trust: values.trust ?? false,
      resume,
      inputFormat,
      includePartialMessages: values["include-partial-messages"] ?? false,
      permissionPromptTool: promptTool,
      claudePermissionMode: claudeMode,
      appendSystemPrompt: values["append-system-prompt"],
      tools: offeredTools(values.tools),
      ignoredFlags: claude.ignored,
    },
  };
}

/** `--tools`: Claude Code's list, whose `default` means every tool and `""` none. */
function offeredTools(list: string | undefined): string[] | undefined {
  if (list === undefined || list.trim() === "default") return undefined;
  return splitToolList(list).map(latheToolName);
}

/** A plan runs where tools can change files: agent mode (or debug), never plan or ask. */
function planRun(
  file: string,
  typed: string | undefined,
  mode: Mode | undefined,
  cwd: string,
): { ok: true; prompt: string } | { ok: false; message: string } {
  if (mode === "plan" || mode === "ask") {
    return {
      ok: false,
      message: `--plan runs a plan in agent mode; it cannot be combined with --mode ${mode}`,
    };
  }
  if (typed !== undefined) {
    return { ok: false, message: "--plan takes the task from the plan file; give no prompt with it" };
  }
  return planPromptFrom(file, cwd);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      print: { type: "boolean", short: "p" },
      cwd: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      mode: { type: "string" },
      "approval-mode": { type: "string" },
      "max-iterations": { type: "string" },
      "output-format": { type: "string" },
      plan: { type: "string" },
      allow: { type: "string", multiple: true },
      deny: { type: "string", multiple: true },
      trust: { type: "boolean" },
      // Claude Code's, so the Claude Agent SDK can start lathe as it starts claude.
      "input-format": { type: "string" },
      "include-partial-messages": { type: "boolean" },
      "permission-prompt-tool": { type: "string" },
      "permission-mode": { type: "string" },
      "max-turns": { type: "string" },
      "append-system-prompt": { type: "string" },
      tools: { type: "string" },
      allowedTools: { type: "string", multiple: true },
      "allowed-tools": { type: "string", multiple: true },
      disallowedTools: { type: "string", multiple: true },
      "disallowed-tools": { type: "string", multiple: true },
      verbose: { type: "boolean" },
      version: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
  });
}
