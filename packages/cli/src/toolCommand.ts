import { parseArgs } from "node:util";
import {
  type AnyTool,
  type ApprovalMode,
  approvalModeSchema,
  BackgroundTerminals,
  decideByRisk,
  decidePolicy,
  defaultOutputLimits,
  FileReadLedger,
  type PolicyDecision,
  runTool,
  type ToolContext,
  type ToolRegistry,
  type ToolResult,
} from "@lathe/core";
import { errorInfo, type LatheErrorInfo, newId } from "@lathe/protocol";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { projectRootFrom } from "./projectRoot.js";
import { setUpToolCall, type ToolCallSetup } from "./toolCallSetup.js";
import { toolListing } from "./toolListing.js";
import { loadUserSettings } from "./userSettings.js";

export interface ToolCommandIo {
  /** The arguments after `tool`. */
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
}

const usageHead = `Usage: lathe tool <name> --args <json> [--cwd DIR] [--approval-mode MODE] [--no-sandbox]

Runs one tool outside a session, under the same policy as a session, and prints one JSON line:
  {"ok":true,"output":"…","metadata":{…}}        (metadata when the tool returns some)
  {"ok":false,"error":{"code":"E_…","message":"…"}}
The exit code is 0 either way; 2 means the command itself was misused.

Options:
      --args JSON            the tool's arguments, a JSON object
      --cwd DIR              project directory (default: the current directory)
      --approval-mode MODE   manual | ask_first (default) | auto_edit | auto | yolo;
                             nobody can approve here, so a call the mode would ask about
                             fails with E_USER_REJECTED
      --no-sandbox           run commands outside the sandbox (by default they run in it
                             as in a session: settings.sandbox, else bubblewrap where it works)
  -h, --help                 this help; after a tool name, that tool's description and schema

The tools are a session's in this folder: the built-ins, the web tools, and the tools of the MCP
servers in $LATHE_HOME/mcp.json and, in a trusted folder, the project's.
Commands started with run_terminal_cmd and is_background are stopped when lathe tool exits.
`;

/** `lathe tool`: validate, judge as a session would, run, print one JSON line. Returns the exit code. */
export async function runToolCommand(io: ToolCommandIo): Promise<number> {
  const parsed = parseToolArgs(io.argv);
  const misuse = (message: string) => {
    io.stderr(`lathe tool: ${message}\n\n${usageHead}`);
    return exitCodes.usage;
  };
  if (!parsed.ok) return misuse(parsed.message);
  const { name, values } = parsed;
  const call = values.help || name === undefined ? undefined : callFrom(name, values.args);
  if (call !== undefined && !call.ok) return misuse(call.message);
  const approval =
    values["approval-mode"] === undefined ? undefined : approvalModeSchema.safeParse(values["approval-mode"]);
  if (approval !== undefined && !approval.success) {
    return misuse(`--approval-mode must be one of ${approvalModeSchema.options.join(", ")}`);
  }
  const projectRoot = projectRootFrom(values.cwd ?? io.cwd);
  if (!projectRoot.ok) return misuse(projectRoot.error.message);
  const latheHome = latheHomeFrom(io.env);
  const settings = loadUserSettings(latheHome);
  if (!settings.ok) return misuse(settings.message);
  const approvalMode = approval?.data ?? settings.settings.approvalMode ?? "ask_first";

  const setup = await setUpToolCall({
    projectRoot: projectRoot.path,
    latheHome,
    settings: settings.settings,
    env: io.env,
    noSandbox: values["no-sandbox"] === true,
    warn: (message) => io.stderr(`lathe tool: ${message}\n`),
  });
  try {
    if (!values.help && name === undefined) {
      io.stderr(`lathe tool: no tool name given\n\n${usageWithTools(setup.registry)}`);
      return exitCodes.usage;
    }
    if (call === undefined) return help(io, setup.registry, name, misuse);
    const result = await validateAndRun(setup, call.name, call.args, approvalMode);
    io.stdout(`${JSON.stringify(resultLine(result))}\n`);
    return exitCodes.completed;
  } finally {
    await setup.close();
  }
}

type CallRequest = { ok: true; name: string; args: string } | { ok: false; message: string };

function callFrom(name: string, args: string | undefined): CallRequest {
  if (args === undefined)
    return { ok: false, message: "--args is required (use --args '{}' for a tool without arguments)" };
  try {
    JSON.parse(args);
  } catch (error) {
    return {
      ok: false,
      message: `--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  return { ok: true, name, args };
}

function help(
  io: ToolCommandIo,
  registry: ToolRegistry,
  name: string | undefined,
  misuse: (message: string) => number,
): number {
  if (name === undefined) {
    io.stdout(usageWithTools(registry));
    return exitCodes.completed;
  }
  const tool = registry.get(name);
  if (tool === undefined) {
    const suggestions = registry.suggest(name);
    const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(", ")}?` : "";
    return misuse(`E_TOOL_NOT_FOUND: unknown tool "${name}".${hint}`);
  }
  io.stdout(toolHelp(tool, registry));
  return exitCodes.completed;
}

type ParsedToolArgs =
  | { ok: true; name: string | undefined; values: ReturnType<typeof parse>["values"] }
  | { ok: false; message: string };

function parseToolArgs(argv: string[]): ParsedToolArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const [name, ...extra] = parsed.positionals;
  if (extra.length > 0) return { ok: false, message: `one tool at a time; unexpected: ${extra.join(" ")}` };
  return { ok: true, name, values: parsed.values };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      args: { type: "string" },
      cwd: { type: "string" },
      "approval-mode": { type: "string" },
      "no-sandbox": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** The steps of the session's scheduler for one call, with "ask" turned into a rejection. */
async function validateAndRun(
  setup: ToolCallSetup,
  name: string,
  rawArguments: string,
  approvalMode: ApprovalMode,
): Promise<ToolResult> {
  const validated = setup.registry.validate(name, rawArguments);
  if (!validated.ok) return { ok: false, error: validated.error };
  const { tool, args } = validated;
  const policy = await decidePolicy({ tool, args, approvalMode, ...setup.policy });
  if (policy.decision === "deny") {
    return { ok: false, error: errorInfo(policy.code ?? "E_SECURITY_BLOCKED", policy.reason) };
  }
  if (policy.decision === "ask") return { ok: false, error: cannotAsk(tool.name, policy, approvalMode) };

  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.once("SIGINT", cancel);
  process.once("SIGTERM", cancel);
  const terminals = new BackgroundTerminals();
  const context: ToolContext = {
    projectRoot: setup.policy.projectRoot,
    sessionId: newId(),
    callId: newId(),
    latheHome: setup.policy.latheHome,
    signal: controller.signal,
    // The one JSON line is the whole answer; nothing streams beside it.
    emitOutput: () => {},
    // One call with no history: nothing can have been read before it, so reading first is not required.
    fileReads: new FileReadLedger({ enforce: false }),
    terminals,
    outputLimits: defaultOutputLimits,
    sandbox: setup.sandbox,
  };
  try {
    return await runTool(tool, args, context);
  } finally {
    process.off("SIGINT", cancel);
    process.off("SIGTERM", cancel);
    // Nothing could read or stop a background command after this process is gone.
    await terminals.killAll();
  }
}

function cannotAsk(toolName: string, policy: PolicyDecision, mode: ApprovalMode): LatheErrorInfo {
  if (policy.needsNetwork && decideByRisk(mode, policy.risk) === "allow") {
    const message =
      `${toolName} needs the network, which the sandbox cuts off, and nobody can approve it here. ` +
      "Re-run with --no-sandbox, or set sandbox.network to true in settings.json.";
    return errorInfo("E_USER_REJECTED", message);
  }
  const allowing = approvalModeSchema.options.filter(
    (candidate) => decideByRisk(candidate, policy.risk) === "allow",
  );
  const [least, ...more] = allowing;
  const remedy =
    least === undefined
      ? "No approval mode allows it."
      : `Re-run with --approval-mode ${least}${more.length > 0 ? ` (or ${more.join(", ")})` : ""} to allow it.`;
  const message =
    `${toolName} is ${policy.risk} risk, and approval mode ${mode} asks before running it; ` +
    `nobody can approve a call here. ${remedy}`;
  return errorInfo("E_USER_REJECTED", message);
}

type ResultLine =
  | { ok: true; output: string; metadata?: Record<string, unknown> }
  | { ok: false; error: { code: string; message: string }; output?: string };

function resultLine(result: ToolResult): ResultLine {
  if (result.ok) {
    return result.metadata === undefined
      ? { ok: true, output: result.output }
      : { ok: true, output: result.output, metadata: result.metadata };
  }
  const error = { code: result.error.code, message: result.error.message };
  return result.output === undefined ? { ok: false, error } : { ok: false, error, output: result.output };
}

function usageWithTools(registry: ToolRegistry): string {
  return `${usageHead}\nTools (lathe tool <name> --help for one):\n${toolListing(registry)}`;
}

function toolHelp(tool: AnyTool, registry: ToolRegistry): string {
  const [spec] = registry.specs((candidate) => candidate.name === tool.name);
  const schema = JSON.stringify(spec?.inputSchema ?? {}, null, 2);
  return `lathe tool ${tool.name} --args <json>   (${tool.kind})\n\n${tool.description}\n\nArguments (JSON Schema):\n${schema}\n`;
}
