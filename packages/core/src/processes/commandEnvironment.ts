import { secretRedactor } from "../secrets/secretRedactor.js";
import { environmentSecrets, isSecretVariable } from "../secrets/secretVariables.js";

export interface CommandEnvironmentSettings {
  /**
   * Variables a command keeps although they look secret (`shell.passEnvironment` in settings):
   * the user's choice for tools that need a token, such as `npm publish` with `NPM_TOKEN`.
   */
  passEnvironment?: readonly string[];
}

/**
 * The environment of every command the model asks for (run_terminal_cmd, in the foreground or
 * the background, sandboxed or not): the user's, without the variables that hold secrets — by
 * name (`isSecretVariable`: provider keys, `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, `*_API_KEY`…) or
 * by value (a copy of such a value, or a string in a known key format) — unless the user passes
 * them by name; with pagers, prompts and colours that would confuse a model turned off.
 *
 * Hooks and MCP servers do not get this: they are programs the user configured, which may need
 * keys; MCP servers start from the SDK's minimal environment plus their configured `env`.
 */
export function commandEnvironment(
  settings: CommandEnvironmentSettings = {},
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const passed = new Set(settings.passEnvironment ?? []);
  const holdsSecret = secretRedactor(environmentSecrets(base));
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    const secret = isSecretVariable(name) || holdsSecret(value) !== value;
    if (!secret || passed.has(name)) env[name] = value;
  }
  Object.assign(env, {
    LATHE: "1",
    PAGER: "cat",
    GIT_PAGER: "cat",
    GIT_TERMINAL_PROMPT: "0",
    NO_COLOR: "1",
  });
  // Either would turn colours back on (and Node warns when one is set beside NO_COLOR).
  delete env.FORCE_COLOR;
  delete env.CLICOLOR_FORCE;
  return env;
}
