import {
  apiKeyEnvVars,
  defaultBaseUrls,
  lookupModel,
  type ProviderName,
  providerNames,
  readCredentialsFile,
  resolveApiKey,
  shippedCatalog,
} from "@lathe/core";
import { defaultModelFor } from "./engineSetup.js";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { type CommandIo, parseSubcommand } from "./subcommandArgs.js";
import { table } from "./textTable.js";
import { loadUserSettings, type UserSettings } from "./userSettings.js";

export const modelsUsage = `Usage: lathe models [--provider NAME] [--json]

Lists the model catalog (context window, max output, prices in US dollars per million tokens)
and the providers: whether each has a key and where it comes from (never the key itself), and
the base URL a session would use. A model is "ready" when its provider has a key or needs none.

Options:
      --provider NAME   only this provider: ${providerNames.join(" | ")}
      --json            print JSON instead of tables
  -h, --help            this help

Keys come from the environment (${apiKeyEnvVars.openai[0]}, ${apiKeyEnvVars.anthropic[0]}, …) or
$LATHE_HOME/credentials.json; base URLs from "baseUrls" in $LATHE_HOME/settings.json.
Exit codes: 0 done, 2 misuse or invalid settings.
`;

/** Ollama and OpenAI-compatible servers usually run on the user's machine, without a key. */
const localProviders: ReadonlySet<ProviderName> = new Set(["ollama", "openai-compatible"]);

export interface ProviderState {
  name: ProviderName;
  hasKey: boolean;
  /** Where the key is found: an environment variable, credentials.json; "none" without one. */
  keySource: "env" | "credentials" | "none";
  /** The variable's name or the file's path; never the key. */
  keyFrom?: string;
  /** Why the key cannot be read (a credentials.json others can read, or not JSON). */
  keyError?: string;
  local: boolean;
  baseUrl: string;
  baseUrlSource: "default" | "settings";
}

export interface ModelEntry {
  id: string;
  provider: string;
  contextWindow: number;
  maxOutputTokens: number;
  inputPerMTok: number;
  cachedInputPerMTok: number;
  outputPerMTok: number;
  inCatalog: boolean;
  ready: boolean;
}

/** `lathe models`. Returns the exit code. */
export async function runModelsCommand(io: CommandIo): Promise<number> {
  const parsed = parseSubcommand(io, "models", modelsUsage, { provider: { type: "string" } });
  if (!parsed.ok) return parsed.code;
  const { values, positionals } = parsed;
  if (positionals.length > 0) return parsed.misuse(`unexpected: ${positionals.join(" ")}`);
  const only = values.provider;
  if (only !== undefined && !isProvider(only)) {
    return parsed.misuse(
      `E_INVALID_ARGS: unknown provider "${only}"; the providers are ${providerNames.join(", ")}`,
    );
  }
  const latheHome = latheHomeFrom(io.env);
  const loaded = loadUserSettings(latheHome);
  if (!loaded.ok) {
    io.stderr(`lathe models: E_INVALID_ARGS: ${loaded.message}\n`);
    return exitCodes.usage;
  }
  const providers = providerStates(loaded.settings, io.env, latheHome).filter(
    (provider) => only === undefined || provider.name === only,
  );
  const defaultModel = defaultModelChoice(loaded.settings, io.env);
  const models = modelEntries(loaded.settings, defaultModel?.id, providers).filter(
    (model) => only === undefined || model.provider === only,
  );
  if (values.json)
    io.stdout(`${JSON.stringify({ defaultModel: defaultModel ?? null, providers, models })}\n`);
  else io.stdout(modelsText(defaultModel, providers, models));
  return exitCodes.completed;
}

function isProvider(name: string): name is ProviderName {
  return (providerNames as readonly string[]).includes(name);
}

function providerStates(
  settings: UserSettings,
  env: Record<string, string | undefined>,
  latheHome: string,
): ProviderState[] {
  // A credentials.json that cannot be used hides every key in it: say why once per provider.
  const credentials = readCredentialsFile(latheHome);
  return providerNames.map((name) => {
    const configured = settings.baseUrls?.[name];
    const base = {
      name,
      local: localProviders.has(name),
      baseUrl: configured ?? defaultBaseUrls[name],
      baseUrlSource: configured === undefined ? ("default" as const) : ("settings" as const),
    };
    const lookup = resolveApiKey(name, { env, latheHome });
    if (
      !lookup.ok ||
      lookup.apiKey === undefined ||
      lookup.source === "none" ||
      lookup.source === "setting"
    ) {
      return credentials.ok
        ? { ...base, hasKey: false, keySource: "none" as const }
        : { ...base, hasKey: false, keySource: "none" as const, keyError: credentials.error.message };
    }
    return { ...base, hasKey: true, keySource: lookup.source, keyFrom: lookup.sourceName };
  });
}

type DefaultModel = { id: string; source: string };

/** The model a session uses without `--model`, and what chose it, as engineSetup decides. */
function defaultModelChoice(
  settings: UserSettings,
  env: Record<string, string | undefined>,
): DefaultModel | undefined {
  if (env.LATHE_MODEL) return { id: env.LATHE_MODEL, source: "env LATHE_MODEL" };
  if (settings.model) return { id: settings.model, source: "settings model" };
  const detected = defaultModelFor(env);
  return detected === undefined ? undefined : { id: detected, source: "the provider key in the environment" };
}

/** The catalog, then the configured models it does not know (with the defaults a session assumes). */
function modelEntries(
  settings: UserSettings,
  defaultModel: string | undefined,
  providers: readonly ProviderState[],
): ModelEntry[] {
  const usable = new Set(providers.filter((state) => state.hasKey || state.local).map((state) => state.name));
  const catalog = shippedCatalog();
  const configured = [defaultModel, settings.fastModel, ...(settings.fallbackModels ?? [])].filter(
    (id): id is string => id !== undefined && !catalog.has(id),
  );
  return [...new Set([...catalog.keys(), ...configured])].map((id) => {
    const provider = id.split(":")[0] ?? "";
    const info = lookupModel(id, catalog);
    return {
      id,
      provider,
      contextWindow: info.contextWindow,
      maxOutputTokens: info.maxOutputTokens,
      inputPerMTok: info.inputPerMTok,
      cachedInputPerMTok: info.cachedInputPerMTok,
      outputPerMTok: info.outputPerMTok,
      inCatalog: info.known,
      ready: usable.has(provider as ProviderName),
    };
  });
}

function modelsText(
  defaultModel: DefaultModel | undefined,
  providers: readonly ProviderState[],
  models: readonly ModelEntry[],
): string {
  const head = defaultModel
    ? `Default model: ${defaultModel.id} (from ${defaultModel.source})`
    : 'Default model: none (set LATHE_MODEL, "model" in settings.json, or a provider key)';
  const providerRows = providers.map((provider) => [
    provider.name,
    keyText(provider),
    `${provider.baseUrl}${provider.baseUrlSource === "settings" ? " (settings)" : ""}`,
  ]);
  const modelRows = models.map((model) => [
    model.id,
    model.contextWindow.toLocaleString("en-US"),
    model.maxOutputTokens.toLocaleString("en-US"),
    model.inCatalog ? dollars(model.inputPerMTok) : "?",
    model.inCatalog ? dollars(model.cachedInputPerMTok) : "?",
    model.inCatalog ? dollars(model.outputPerMTok) : "?",
    [model.ready ? "ready" : "no key", model.inCatalog ? "" : "not in catalog"].filter(Boolean).join(", "),
  ]);
  return [
    head,
    "",
    table([["PROVIDER", "KEY", "BASE URL"], ...providerRows]),
    "",
    table(
      [["MODEL", "CONTEXT", "MAX OUT", "IN $/M", "CACHED $/M", "OUT $/M", ""], ...modelRows],
      [1, 2, 3, 4, 5],
    ),
    "",
  ].join("\n");
}

function keyText(provider: ProviderState): string {
  if (provider.keyError !== undefined) return `unreadable: ${provider.keyError}`;
  if (provider.keySource === "env") return `env ${provider.keyFrom}`;
  if (provider.keySource === "credentials") return `credentials ${provider.keyFrom}`;
  return provider.local ? "none needed (local)" : "none";
}

function dollars(perMTok: number): string {
  return perMTok.toFixed(perMTok < 0.1 && perMTok > 0 ? 3 : 2);
}
