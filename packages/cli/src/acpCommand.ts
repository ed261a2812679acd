import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { latheAcpAgent } from "./acp/acpAgent.js";
import { parseCliArgs } from "./cliArgs.js";
import { cliVersion } from "./cliVersion.js";
import { setUpEngine } from "./engineSetup.js";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
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
    async openSession(cwd, requestApproval) {
      const engine = await setUpEngine({
        args: { ...parsed.args, cwd },
        settings: settings.settings,
        env: io.env,
        latheHome,
        requestApproval,
        warn: (message) => io.stderr(`lathe acp: ${message}\n`),
      });
      if (!engine.ok) return { ok: false, message: engine.error.message };
      return {
        ok: true,
        value: {
          session: engine.session,
          projectRoot: engine.projectRoot,
          toolKind: engine.toolKind,
          modelFor: engine.modelFor,
          close: engine.close,
        },
      };
    },
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
