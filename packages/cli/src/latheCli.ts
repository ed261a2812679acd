import {
  type AgentSession,
  checkWorkspaceTrust,
  detectSandbox,
  noProviderHelp,
  probeLocalProviders,
  projectTrusted,
  redactDeep,
} from "@lathe/core";
import { ControlChannel } from "./agentSdk/controlChannel.js";
import { runStreamJsonSession } from "./agentSdk/streamJsonSession.js";
import { type CliArgs, parseCliArgs, usage } from "./cliArgs.js";
import { cliVersion } from "./cliVersion.js";
import { type EngineInputs, type EngineSetup, setUpEngine } from "./engineSetup.js";
import { exitCodes } from "./exitCodes.js";
import { runHeadless } from "./headlessRun.js";
import { InteractiveChat } from "./interactiveChat.js";
import { latheHomeFrom } from "./latheHome.js";
import { watchLauncher } from "./launcherWatch.js";
import { modelChoices } from "./modelChoices.js";
import { type ClosableOutput, closableOutput } from "./output/closableOutput.js";
import { streamJsonOutput } from "./output/streamJsonOutput.js";
import { providersWithKeys } from "./providerKeyStates.js";
import type { CommandIo } from "./subcommandArgs.js";
import { SwitchableEngine } from "./switchableEngine.js";
import { projectInputHistory } from "./terminalUi/inputHistory.js";
import { TerminalChat } from "./terminalUi/terminalChat.js";
import { loadUserSettings } from "./userSettings.js";
import { keepWasmOnBaselineCompiler } from "./wasmTiering.js";

/** Where the run writes: stdout and stderr, which may close under it (a pipe's reader gone). */
interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdoutState: ClosableOutput;
}

/** What a subcommand module gets: the same for all of them. */
type CommandRunner = (io: CommandIo) => Promise<number>;

/**
 * `lathe <subcommand> …`, by the first argument; anything else is a chat or a headless run. Each
 * subcommand's module loads only when it runs, so `lathe -p` does not pay for the server, the
 * evaluation harness and the rest at start-up.
 */
const subcommands = new Map<string, () => Promise<CommandRunner>>([
  ["tool", async () => (await import("./toolCommand.js")).runToolCommand],
  ["policy", async () => (await import("./policyCommand.js")).runPolicyCommand],
  ["sessions", async () => (await import("./sessionsCommand.js")).runSessionsCommand],
  ["checkpoints", async () => (await import("./checkpointsCommand.js")).runCheckpointsCommand],
  ["serve", async () => (await import("./serveCommand.js")).runServeCommand],
  ["eval", async () => (await import("./evalCommand.js")).runEvalCommand],
  ["trace", async () => (await import("./traceCommand.js")).runTraceCommand],
  ["trust", async () => (await import("./trustCommand.js")).runTrustCommand],
  ["models", async () => (await import("./modelsCommand.js")).runModelsCommand],
  ["config", async () => (await import("./configCommand.js")).runConfigCommand],
  ["mcp", async () => (await import("./mcpCommand.js")).runMcpCommand],
  ["acp", async () => (await import("./acpCommand.js")).runAcpCommand],
  ["cloud", async () => (await import("./cloud/cloudCommand.js")).runCloudCommand],
  ["worker", async () => (await import("./cloud/workerCommand.js")).runWorkerCommand],
]);

async function main(argv: string[], output: CliOutput): Promise<number> {
  const { stdout, stderr } = output;
  const [first, ...rest] = argv;
  const subcommand = first === undefined ? undefined : subcommands.get(first);
  if (subcommand !== undefined) {
    const run = await subcommand();
    return run({ argv: rest, cwd: process.cwd(), env: process.env, stdout, stderr });
  }
  const parsed = parseCliArgs(argv, process.cwd());
  if (!parsed.ok) {
    stderr(`lathe: ${parsed.message}\n\n${usage}`);
    return exitCodes.usage;
  }
  const { args } = parsed;
  if (args.help) {
    stdout(usage);
    return exitCodes.completed;
  }
  if (args.version) {
    stdout(`lathe ${cliVersion}\n`);
    return exitCodes.completed;
  }
  const env = process.env;
  const latheHome = latheHomeFrom(env);
  const settings = loadUserSettings(latheHome);
  if (!settings.ok) {
    stderr(`lathe: ${settings.message}\n`);
    return exitCodes.usage;
  }

  const sandboxMode = settings.settings.sandbox?.mode ?? "auto";
  const headless = args.print || args.prompt !== undefined || !process.stdin.isTTY;
  // The chat waits for its user anyway: its probe overlaps the engine's set-up. A headless run
  // probes only when the model calls a tool (below), off the path of its first request.
  if (!headless && sandboxMode !== "off") void detectSandbox();
  // A terminal on both ends gets the terminal UI; typed input with piped output, the plain chat.
  const terminalUi = !headless && process.stdout.isTTY === true;
  const chat = headless ? undefined : terminalUi ? new TerminalChat() : new InteractiveChat();
  // What the set-up has to say goes where the chat shows it: the terminal UI may be drawn already.
  const report = (text: string) => (chat ? chat.report(text) : stderr(text));
  if (args.ignoredFlags.length > 0)
    stderr(
      `lathe: accepted and ignored (Claude Code flags Lathe has no use for): ${args.ignoredFlags.join(", ")}\n`,
    );
  // Claude Code's control protocol (the Claude Agent SDK): approvals asked of the driving program.
  const sdk = args.inputFormat === "stream-json" ? sdkControl(args, stdout) : undefined;
  const engineInputs: EngineInputs = {
    args,
    settings: settings.settings,
    env,
    latheHome,
    requestApproval: chat?.requestApproval ?? (sdk?.asks ? sdk.control.requestApproval : undefined),
    askUser: chat?.askUser,
    confirmTrust: chat?.confirmTrust,
    warn: (message) => report(`lathe: ${message}\n`),
  };
  const engine = await setUpEngine(engineInputs);
  if (!engine.ok) {
    if (engine.kind === "no_model") {
      const probe = await probeLocalProviders({ timeoutMs: 500 });
      stderr(`${noProviderHelp(probe, latheHome)}\n`);
      return exitCodes.usage;
    }
    stderr(`lathe: ${engine.error.message}\n`);
    if (engine.kind === "storage") return exitCodes.error;
    return engine.kind === "auth" ? exitCodes.auth : exitCodes.usage;
  }
  if (engine.checkpointsOff) report(`lathe: checkpoints are off: ${engine.checkpointsOff.message}\n`);
  if (chat) await noticeMissingSandbox(sandboxMode, report);
  const probed = chat ? undefined : probeSandboxAtFirstToolCall(engine.session, sandboxMode, stderr);
  if (chat instanceof TerminalChat) {
    const sandbox = sandboxMode !== "off" && (await detectSandbox()).available;
    return runTerminal(chat, engine, engineInputs, sandbox);
  }
  const code = chat
    ? await chat.run(engine.session, `lathe ${cliVersion} · ${engine.modelId} · ${engine.projectRoot}`)
    : sdk
      ? await runStreamJsonInput(engine, args, sdk, output)
      : await runPrompt(engine, args, output);
  await probed?.();
  // Background commands live in process groups of their own, which would outlive us.
  await engine.close();
  return code;
}

/**
 * The terminal UI, on an engine it can point at another session (`/clear`, `/resume`, `/undo`,
 * `/trust`): set up again as `lathe -r` would, keeping the mode and approval mode the user chose;
 * nobody is asked about trust again unless `/trust` says so.
 */
async function runTerminal(
  chat: TerminalChat,
  engine: Extract<EngineSetup, { ok: true }>,
  inputs: EngineInputs,
  sandbox: boolean,
): Promise<number> {
  const switchable: SwitchableEngine = new SwitchableEngine(
    engine,
    (change): Promise<EngineSetup> => {
      const { session } = switchable;
      return setUpEngine({
        ...inputs,
        confirmTrust: undefined,
        args: {
          ...inputs.args,
          prompt: undefined,
          resume: change.resume,
          model: change.model ?? inputs.args.model,
          trust: change.trust ?? inputs.args.trust,
          mode: session.setup.mode,
          approvalMode: session.setup.approvalMode,
        },
      });
    },
    inputs,
  );
  const code = await chat.run(`lathe ${cliVersion} · ${engine.modelId} · ${engine.projectRoot}`, {
    engine: switchable,
    modelFor: (id) => switchable.current.modelFor(id),
    modelChoices: () =>
      modelChoices(
        switchable.session.modelId,
        providersWithKeys({ latheHome: inputs.latheHome, env: inputs.env }),
      ),
    inputHistory: () => projectInputHistory(switchable.current.persistence.store, engine.projectRoot),
    sandbox,
    projectTrust: () => {
      const { latheHome, settings } = inputs;
      const trust = checkWorkspaceTrust({ projectRoot: engine.projectRoot, latheHome, settings });
      if (trust.status === "not_needed") return "not_needed";
      return projectTrusted(trust) ? "trusted" : "untrusted";
    },
  });
  await switchable.close();
  return code;
}

async function runPrompt(
  engine: Extract<EngineSetup, { ok: true }>,
  args: CliArgs,
  { stdout, stderr, stdoutState }: CliOutput,
): Promise<number> {
  const prompt = args.prompt ?? (await readStdin());
  if (!prompt.trim()) {
    stderr(`lathe: no prompt given\n\n${usage}`);
    return exitCodes.usage;
  }
  return runHeadless({
    session: engine.session,
    prompt,
    outputFormat: args.outputFormat,
    includePartialMessages: args.includePartialMessages,
    mcpServers: engine.mcpServers(),
    cwd: engine.projectRoot,
    modelId: engine.modelId,
    version: cliVersion,
    stdout,
    stderr,
    stdoutState,
  });
}

/**
 * The control channel of a run driven over stdin (`--input-format stream-json`), made before the
 * session so that the engine can ask its approvals through it. Its lines go through the session's
 * redactor once there is a session.
 */
function sdkControl(args: CliArgs, stdout: (text: string) => void) {
  let redact = (value: Record<string, unknown>) => value;
  const writeLine = (line: Record<string, unknown>) => stdout(`${JSON.stringify(redact(line))}\n`);
  const control = new ControlChannel(writeLine);
  control.askNobody = args.claudePermissionMode === "dontAsk";
  // Without --permission-prompt-tool stdio nobody is asked, as in any headless run.
  const asks = args.permissionPromptTool === "stdio";
  return {
    control,
    asks,
    writeLine,
    redactWith(session: AgentSession) {
      redact = (value) => redactDeep(value, session.redact);
    },
  };
}

/** `--input-format stream-json`: user messages and control requests on stdin until it closes. */
async function runStreamJsonInput(
  engine: Extract<EngineSetup, { ok: true }>,
  args: CliArgs,
  sdk: ReturnType<typeof sdkControl>,
  { stdout }: CliOutput,
): Promise<number> {
  const { session } = engine;
  sdk.redactWith(session);
  const stream = streamJsonOutput(
    {
      session,
      cwd: engine.projectRoot,
      model: engine.modelId,
      version: cliVersion,
      includePartialMessages: args.includePartialMessages,
      mcpServers: engine.mcpServers(),
      sdkMessagesOnly: true,
    },
    stdout,
  );
  const runMessage = async (text: string) => {
    const started = performance.now();
    const result = await session.send(text);
    stream.finish(result, Math.round(performance.now() - started));
    return result;
  };
  if (args.prompt !== undefined) await runMessage(args.prompt);
  await runStreamJsonSession({
    session,
    control: sdk.control,
    stdin: process.stdin,
    write: sdk.writeLine,
    runMessage,
    modelFor: engine.modelFor,
    models: [
      {
        value: engine.modelId,
        displayName: engine.modelId,
        description: "The model this session started with.",
      },
    ],
  });
  stream.close();
  // A run that ended badly has said so in its result line; the process itself did its job.
  return exitCodes.completed;
}

/** Said once per session, before any command runs (SPEC §5). */
async function noticeMissingSandbox(mode: string, stderr: (text: string) => void): Promise<void> {
  if (mode !== "auto") return;
  const detection = await detectSandbox();
  if (!detection.available) {
    stderr(`lathe: commands run without a sandbox: ${detection.reason ?? "bubblewrap is not available"}.\n`);
  }
}

/**
 * A run whose model calls no tool needs no sandbox, and the probe starts three processes (bwrap,
 * bash, sed): it starts with the first tool call the model streams, which the tool round awaits
 * anyway. The notice still comes before any command: this callback is chained on the probe before
 * the tool round's. What it returns settles the probe before the process exits, so its temporary
 * folder is removed even when the run ends before any tool ran.
 */
function probeSandboxAtFirstToolCall(
  session: AgentSession,
  mode: string,
  stderr: (text: string) => void,
): () => Promise<void> {
  if (mode === "off") return async () => {};
  let probing: Promise<void> | undefined;
  const unsubscribe = session.subscribe((event) => {
    if (event.type !== "tool_call_start") return;
    unsubscribe();
    probing = mode === "auto" ? noticeMissingSandbox(mode, stderr) : detectSandbox().then(() => undefined);
  });
  return async () => {
    unsubscribe();
    await probing;
  };
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The whole `lathe` command: runs it with `argv` (without node and script) and exits the process
 * with its status. Nothing happens when this module loads, only when this runs: the same module
 * serves `bin/lathe.js` and the start-up snapshot, whose heap is built long before a user runs it.
 */
export async function runLatheCli(argv: string[]): Promise<void> {
  // Before anything is started: what Lathe starts must not inherit the launcher's variable.
  watchLauncher(process.env);
  keepWasmOnBaselineCompiler();
  const stdoutState = closableOutput(process.stdout);
  const stderrState = closableOutput(process.stderr);
  const output: CliOutput = {
    stdout: (text) => stdoutState.write(text),
    stderr: (text) => stderrState.write(text),
    stdoutState,
  };
  const code = await main(argv, output);
  // Let stdout drain before exiting; pipes may still hold the last lines. A closed one holds nothing.
  if (stdoutState.closed) process.exit(code);
  else process.stdout.write("", () => process.exit(code));
}
