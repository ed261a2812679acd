import { type AgentSession, detectSandbox, noProviderHelp, probeLocalProviders } from "@lathe/core";
import { type OutputFormat, parseCliArgs, usage } from "./cliArgs.js";
import { cliVersion } from "./cliVersion.js";
import { type EngineSetup, setUpEngine } from "./engineSetup.js";
import { exitCodes } from "./exitCodes.js";
import { runHeadless } from "./headlessRun.js";
import { InteractiveChat } from "./interactiveChat.js";
import { latheHomeFrom } from "./latheHome.js";
import { watchLauncher } from "./launcherWatch.js";
import { type ClosableOutput, closableOutput } from "./output/closableOutput.js";
import type { CommandIo } from "./subcommandArgs.js";
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
  const chat = headless ? undefined : new InteractiveChat();
  const engine = await setUpEngine({
    args,
    settings: settings.settings,
    env,
    latheHome,
    requestApproval: chat?.requestApproval,
    askUser: chat?.askUser,
    confirmTrust: chat?.confirmTrust,
    warn: (message) => stderr(`lathe: ${message}\n`),
  });
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
  if (engine.checkpointsOff) stderr(`lathe: checkpoints are off: ${engine.checkpointsOff.message}\n`);
  if (chat) await noticeMissingSandbox(sandboxMode, stderr);
  const probed = chat ? undefined : probeSandboxAtFirstToolCall(engine.session, sandboxMode, stderr);
  const code = chat
    ? await chat.run(engine.session, `lathe ${cliVersion} · ${engine.modelId} · ${engine.projectRoot}`)
    : await runPrompt(engine, args.prompt, args.outputFormat, output);
  await probed?.();
  // Background commands live in process groups of their own, which would outlive us.
  await engine.close();
  return code;
}

async function runPrompt(
  engine: Extract<EngineSetup, { ok: true }>,
  argPrompt: string | undefined,
  outputFormat: OutputFormat,
  { stdout, stderr, stdoutState }: CliOutput,
): Promise<number> {
  const prompt = argPrompt ?? (await readStdin());
  if (!prompt.trim()) {
    stderr(`lathe: no prompt given\n\n${usage}`);
    return exitCodes.usage;
  }
  return runHeadless({
    session: engine.session,
    prompt,
    outputFormat,
    cwd: engine.projectRoot,
    modelId: engine.modelId,
    version: cliVersion,
    stdout,
    stderr,
    stdoutState,
  });
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
