import { type AuthAdvice, apiKeyEnvVars } from "@lathe/core";
import { errorInfo } from "@lathe/protocol";
import type { SessionFactory } from "@lathe/server";
import { parseCliArgs } from "./cliArgs.js";
import { setUpEngine } from "./engineSetup.js";
import type { CommandIo } from "./subcommandArgs.js";
import { loadUserSettings } from "./userSettings.js";

/**
 * Sessions for `lathe serve`, set up as the command line would set them up with `--cwd`,
 * `--model`, `--mode` and `--resume`. Settings are read for each session, so what the settings
 * page saves applies to the next session opened.
 */
export function serveSessionFactory(io: CommandIo, latheHome: string): SessionFactory {
  return {
    async create(request) {
      const loaded = loadUserSettings(latheHome);
      if (!loaded.ok) return { ok: false, error: errorInfo("E_INVALID_ARGS", loaded.message) };
      const settings = loaded.settings;
      const flags = ["--cwd", request.projectRoot];
      if (request.model) flags.push("--model", request.model);
      if (request.mode) flags.push("--mode", request.mode);
      if (request.resume) flags.push("--resume", request.resume);
      const parsed = parseCliArgs(flags, io.cwd);
      if (!parsed.ok) return { ok: false, error: errorInfo("E_INVALID_ARGS", parsed.message) };
      const engine = await setUpEngine({
        args: parsed.args,
        settings,
        env: io.env,
        latheHome,
        requestApproval: request.requestApproval,
        askUser: request.askUser,
        authAdvice: browserAuthAdvice,
        warn: (message) => io.stderr(`lathe serve: ${message}\n`),
      });
      if (!engine.ok) return { ok: false, error: engine.error };
      const mode = parsed.args.mode ?? settings.mode;
      return { ok: true, session: engine.session, close: engine.close, mode };
    },
  };
}

/** How the browser's user fixes a key: the web UI's Settings, or the server's environment. */
const browserAuthAdvice: AuthAdvice = (provider, rejected) => {
  if (provider === "ollama") {
    return "Ollama needs no key; check that it runs where its base URL points (default http://127.0.0.1:11434/v1).";
  }
  const vars = apiKeyEnvVars[provider].join(" or ");
  // A key from the environment wins over one saved in Settings: saving another would change nothing.
  if (rejected?.source === "env") {
    return `Correct ${vars} where lathe serve runs, or unset it and add a key for ${provider} in Settings → Providers and keys.`;
  }
  return `Add a key for ${provider} in Settings → Providers and keys, or set ${vars} where lathe serve runs.`;
};
