import { parseArgs } from "node:util";
import {
  type ApprovalMode,
  approvalModeSchema,
  builtinTools,
  decidePolicy,
  type FileScope,
  fileScopes,
  type LoadedRule,
  loadRuleLayers,
  type PolicyDecision,
  type RuleError,
  removeRule,
  settingsFileFor,
} from "@lathe/core";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { projectRootFrom } from "./projectRoot.js";
import { setUpToolCall } from "./toolCallSetup.js";
import { toolListing, webToolNames } from "./toolListing.js";
import { loadUserSettings } from "./userSettings.js";

export interface PolicyCommandIo {
  /** The arguments after `policy`. */
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
}

export const policyUsage = `Usage: lathe policy <command> [options]

Commands:
  rules                    list every permission rule, with its source and file
  rules remove RULE --scope project-local|project|user
                           remove a rule (in any spelling) from that scope's settings file
  check --tool NAME --args JSON
                           print the policy's decision on one call, without running it:
                           {"decision":"allow|ask|deny","risk":"safe|low|medium|high|critical",
                            "reason":"…","code":"E_…"}   (code only when denied)
                           The decision is the one a session in this folder makes: the same
                           tools (web tools and MCP tools included), path guard, network guard
                           (the URL's host is resolved, nothing is sent), rules and sandbox.

Options:
      --cwd DIR              project directory (default: the current directory)
      --json                 rules: print JSON instead of a table
      --approval-mode MODE   check: manual | ask_first (default) | auto_edit | auto | yolo
      --allow RULE           add an allow rule for this command only (repeatable)
      --deny RULE            add a deny rule for this command only (repeatable)
  -h, --help                 this help

Rules live in $LATHE_HOME/settings.json (user), .lathe/settings.json (project) and
.lathe/settings.local.json (project-local), as {"permissions":{"allow":[],"ask":[],"deny":[]}}.
Deny beats ask beats allow, whatever the layer.
Exit codes: 0 done, 1 a rule or file is invalid or the rule to remove is not there, 2 misuse.
`;

type Values = ReturnType<typeof parse>["values"];

/** `lathe policy rules | rules remove | check`. Returns the exit code. */
export async function runPolicyCommand(io: PolicyCommandIo): Promise<number> {
  const misuse = (message: string) => {
    io.stderr(`lathe policy: ${message}\n\n${policyUsage}`);
    return exitCodes.usage;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(io.argv);
  } catch (error) {
    return misuse(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const projectRoot = projectRootFrom(values.cwd ?? io.cwd);
  if (values.help) return help(io, projectRoot.ok ? projectRoot.path : io.cwd);
  if (!projectRoot.ok) return misuse(projectRoot.error.message);
  const context: CommandContext = {
    io,
    values,
    projectRoot: projectRoot.path,
    latheHome: latheHomeFrom(io.env),
    misuse,
  };
  const [command, ...rest] = positionals;
  if (command === "rules" && rest[0] === "remove") return removeCommand(context, rest.slice(1));
  if (command === "rules") {
    if (rest.length > 0) return misuse(`unexpected: ${rest.join(" ")}`);
    return rulesCommand(context);
  }
  if (command === "check") {
    if (rest.length > 0) return misuse(`unexpected: ${rest.join(" ")}`);
    return checkCommand(context);
  }
  return misuse(command === undefined ? "no command given" : `unknown command "${command}"`);
}

/** The usage, then the tools `check --tool` can judge in this folder: a session's, MCP tools included. */
async function help(io: PolicyCommandIo, projectRoot: string): Promise<number> {
  const latheHome = latheHomeFrom(io.env);
  const settings = loadUserSettings(latheHome);
  if (!settings.ok) {
    io.stdout(policyUsage);
    return exitCodes.completed;
  }
  const setup = await setUpToolCall({
    projectRoot,
    latheHome,
    settings: settings.settings,
    env: io.env,
    warn: (message) => io.stderr(`lathe policy: ${message}\n`),
  });
  try {
    io.stdout(`${policyUsage}\nTools (check --tool NAME):\n${toolListing(setup.registry)}`);
  } finally {
    await setup.close();
  }
  return exitCodes.completed;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      cwd: { type: "string" },
      json: { type: "boolean" },
      scope: { type: "string" },
      tool: { type: "string" },
      args: { type: "string" },
      "approval-mode": { type: "string" },
      allow: { type: "string", multiple: true },
      deny: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
}

interface CommandContext {
  io: PolicyCommandIo;
  values: Values;
  projectRoot: string;
  latheHome: string;
  misuse(message: string): number;
}

function layers(context: CommandContext) {
  return loadRuleLayers({
    latheHome: context.latheHome,
    projectRoot: context.projectRoot,
    cli: { allow: context.values.allow ?? [], deny: context.values.deny ?? [] },
  });
}

function rulesCommand(context: CommandContext): number {
  const { io, values } = context;
  const { rules, errors } = layers(context);
  const warnings = unknownToolWarnings(rules);
  if (values.json) {
    const files = Object.fromEntries(fileScopes.map((scope) => [scope, settingsFileFor(scope, context)]));
    const listed = rules.map((rule) => ({
      rule: rule.text,
      behavior: rule.behavior,
      source: rule.source,
      file: rule.file,
    }));
    io.stdout(`${JSON.stringify({ rules: listed, errors, warnings, files })}\n`);
  } else {
    io.stdout(rulesTable(rules, context));
    for (const warning of warnings) io.stderr(`lathe policy: note: ${warning}\n`);
    printErrors(io, errors);
  }
  return errors.length > 0 ? exitCodes.error : exitCodes.completed;
}

function rulesTable(rules: readonly LoadedRule[], context: CommandContext): string {
  if (rules.length === 0) {
    const files = fileScopes.map((scope) => `  ${scope.padEnd(13)} ${settingsFileFor(scope, context)}`);
    return `No permission rules. They are read from:\n${files.join("\n")}\n`;
  }
  const ruleWidth = Math.max(...rules.map((rule) => rule.text.length));
  const sourceWidth = Math.max(...rules.map((rule) => rule.source.length));
  const lines = rules.map((rule) =>
    [
      rule.behavior.padEnd(5),
      rule.text.padEnd(ruleWidth),
      rule.source.padEnd(sourceWidth),
      rule.file ?? (rule.source === "cli" ? `--${rule.behavior}` : ""),
    ]
      .join("  ")
      .trimEnd(),
  );
  return `${lines.join("\n")}\n`;
}

/** Rules naming a tool Lathe does not have match nothing; often a Claude Code name like `Bash`. */
function unknownToolWarnings(rules: readonly LoadedRule[]): string[] {
  const known = new Set([...builtinTools().map((tool) => tool.name), ...webToolNames]);
  const unknown = new Set(
    rules
      .map((rule) => rule.tool)
      .filter((tool) => !known.has(tool) && !tool.includes("*") && !tool.startsWith("mcp__")),
  );
  return [...unknown].map(
    (tool) => `no built-in tool is named "${tool}"; its rules only apply to a tool of that exact name`,
  );
}

async function removeCommand(context: CommandContext, rest: string[]): Promise<number> {
  const { io, values } = context;
  const [rule, ...extra] = rest;
  if (rule === undefined) return context.misuse("rules remove needs the rule to remove");
  if (extra.length > 0) return context.misuse(`one rule at a time; unexpected: ${extra.join(" ")}`);
  if (values.scope === undefined || !isFileScope(values.scope)) {
    return context.misuse(`rules remove needs --scope ${fileScopes.join("|")}`);
  }
  const removed = await removeRule(rule, values.scope, context);
  if (!removed.ok) {
    io.stderr(`lathe policy: ${removed.message}\n`);
    return exitCodes.error;
  }
  if (values.json) io.stdout(`${JSON.stringify(removed)}\n`);
  else
    for (const entry of removed.removed)
      io.stdout(`Removed ${entry.behavior} ${entry.rule} from ${removed.file}\n`);
  return exitCodes.completed;
}

function isFileScope(scope: string): scope is FileScope {
  return (fileScopes as readonly string[]).includes(scope);
}

async function checkCommand(context: CommandContext): Promise<number> {
  const { io, values } = context;
  if (values.tool === undefined) return context.misuse("check needs --tool NAME");
  if (values.args === undefined) return context.misuse("check needs --args JSON (--args '{}' for none)");
  const settings = loadUserSettings(context.latheHome);
  if (!settings.ok) return context.misuse(settings.message);
  const approvalMode = approvalModeFor(values["approval-mode"], settings.settings.approvalMode);
  if (!approvalMode.ok) return context.misuse(approvalMode.message);
  const setup = await setUpToolCall({
    projectRoot: context.projectRoot,
    latheHome: context.latheHome,
    settings: settings.settings,
    env: io.env,
    cli: { allow: values.allow ?? [], deny: values.deny ?? [] },
    warn: (message) => io.stderr(`lathe policy: ${message}\n`),
  });
  try {
    const validated = setup.registry.validate(values.tool, values.args);
    // Nothing to judge: the call would fail before the policy is asked, with this code.
    if (!validated.ok) return context.misuse(`${validated.error.code}: ${validated.error.message}`);
    if (setup.ruleErrors.length > 0) {
      printErrors(io, setup.ruleErrors);
      io.stderr("lathe policy: fix or remove the rules above; a decision without them could be wrong\n");
      return exitCodes.usage;
    }
    const decision = await decidePolicy({
      tool: validated.tool,
      args: validated.args,
      approvalMode: approvalMode.mode,
      ...setup.policy,
    });
    io.stdout(`${JSON.stringify(decisionLine(decision))}\n`);
    return exitCodes.completed;
  } finally {
    await setup.close();
  }
}

/** The fields of SPEC §1 in their order; code only when denied, the deciding rule when one did. */
function decisionLine(decision: PolicyDecision): Record<string, string> {
  const line: Record<string, string> = {
    decision: decision.decision,
    risk: decision.risk,
    reason: decision.reason,
  };
  if (decision.decision === "deny" && decision.code !== undefined) line.code = decision.code;
  if (decision.rule !== undefined) line.rule = decision.rule;
  return line;
}

type ModeChoice = { ok: true; mode: ApprovalMode } | { ok: false; message: string };

/** `--approval-mode`, else the user's `approvalMode` setting, else ask_first. */
function approvalModeFor(flag: string | undefined, setting: ApprovalMode | undefined): ModeChoice {
  if (flag === undefined) return { ok: true, mode: setting ?? "ask_first" };
  const parsed = approvalModeSchema.safeParse(flag);
  return parsed.success
    ? { ok: true, mode: parsed.data }
    : { ok: false, message: `--approval-mode must be one of ${approvalModeSchema.options.join(", ")}` };
}

function printErrors(io: PolicyCommandIo, errors: readonly RuleError[]): void {
  for (const error of errors) io.stderr(`lathe policy: ${error.message}\n`);
}
