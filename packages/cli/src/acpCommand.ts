import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { type AcpAgentDeps, latheAcpAgent } from "./acp/acpAgent.js";
import { parseCliArgs } from "./cliArgs.js";
import { cliVersion } from "./cliVersion.js";
import { type EngineInputs, setUpEngine } from "./engineSetup.js";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { projectRootFrom } from "./projectRoot.js";
import { providersWithKeys } from "./providerKeyStates.js";
import { openSessionStore } from "./sessionDatabase.js";
import type { CommandIo } from "./subcommandArgs.js";
import { loadUserSettings } from "./userSettings.js";

/**
 * `lathe acp [--model M] [--base-url URL] [--approval-mode MODE] [--mode MODE]`: the Agent Client
 * Protocol over stdio, for editors (Zed, JetBrains IDEs, Neovim plugins). Stdout carries only the
 * protocol; warnings go to stderr. Serves until the editor closes stdin.
 */
export async function runAcpCommand(io: CommandIo): Promise<number> {
  const parsed = parseCliArgs(io.argv, io.cwd);
  if (!parsed.ok) {
    io.stderr(`lathe acp: ${parsed.message}\n`);
    return exitCodes.usage;
  }
  const latheHome = latheHomeFrom(io.env);
  const settings = loadUserSettings(latheHome);
  if (!settings.ok) {
    io.stderr(`lathe acp: ${settings.message}\n`);
    return exitCodes.usage;
  }
  const agent = latheAcpAgent({
    version: cliVersion,
    providerKeyAdvice: () =>
      parsed.args.model ||
      io.env.LATHE_MODEL ||
      settings.settings.model ||
      providersWithKeys({ latheHome, env: io.env }).size > 0
        ? undefined
        : providerKeyHelp,
    keyedProviders: () => providersWithKeys({ latheHome, env: io.env }),
    listSessions: sessionLister(latheHome, io.env),
    openSession: sessionOpener({
      args: parsed.args,
      settings: settings.settings,
      env: io.env,
      latheHome,
      warn: (message) => io.stderr(`lathe acp: ${message}\n`),
    }),
  });
  const connection = agent.connect(
    acp.ndJsonStream(
      Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
      Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    ),
  );
  await connection.closed;
  return exitCodes.completed;
}

/** Set where the editor starts `lathe acp`, a key reaches every session it opens after. */
const providerKeyHelp =
  "Lathe needs a model provider: set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or DEEPSEEK_API_KEY in the environment the editor starts `lathe acp` in (its agent server `env`), or save a key in `lathe serve`'s Settings; a local Ollama or LM Studio works with `lathe acp --model ollama:MODEL`.";

/** Opens each editor's session through the engine set-up every face uses, in the folder it names. */
export function sessionOpener(inputs: Omit<EngineInputs, "requestApproval">): AcpAgentDeps["openSession"] {
  return async (request) => {
    const warnings: string[] = [];
    const engine = await setUpEngine({
      ...inputs,
      warn: (message) => {
        warnings.push(message);
        inputs.warn?.(message);
      },
      args: { ...inputs.args, cwd: request.cwd, resume: request.resume },
      requestApproval: request.requestApproval,
      extraMcpServers: request.mcpServers,
      editorBuffers: request.editorBuffers,
    });
    if (!engine.ok)
      return {
        ok: false,
        message: engine.error.message,
        reason: openingFailure(engine.kind, engine.error.code),
      };
    const { session, projectRoot, toolKind, modelFor, close } = engine;
    return { ok: true, value: { session, projectRoot, toolKind, modelFor, close, warnings } };
  };
}

/** Reads the stored sessions from `$LATHE_HOME`'s database, opened for each listing and closed. */
export function sessionLister(
  latheHome: string,
  env: Record<string, string | undefined>,
): AcpAgentDeps["listSessions"] {
  return (cwd) => {
    const opened = openSessionStore(latheHome, env);
    if (!opened.ok) return [];
    try {
      const root = cwd === undefined ? undefined : projectRootFrom(cwd);
      if (root && !root.ok) return [];
      return opened.value.listSessions({ projectRoot: root?.path });
    } finally {
      opened.value.close();
    }
  };
}

/** Why a session could not be opened, as the agent answers it. */
function openingFailure(kind: string, code: string): "auth" | "not_found" | "invalid" {
  if (kind === "auth" || kind === "no_model") return "auth";
  return code === "E_SESSION_NOT_FOUND" ? "not_found" : "invalid";
}
