import path from "node:path";
import { z } from "zod";
import { type ConfigVariables, expandVariables } from "./configVariables.js";

interface ServerConfigBase {
  name: string;
  /** The file the entry came from, for messages. */
  source: string;
}

/** A server Lathe starts itself and talks to over stdin/stdout. */
export interface StdioServerConfig extends ServerConfigBase {
  transport: "stdio";
  command: string;
  args: string[];
  /** Set over a minimal environment, not over Lathe's own (which may hold API keys). */
  env: Record<string, string>;
  /** Absolute; the project root unless the entry says otherwise. */
  cwd: string;
}

/** A running server reached over streamable HTTP. */
export interface HttpServerConfig extends ServerConfigBase {
  transport: "http";
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** An entry or a file that was left out; the other servers still load. */
export interface McpConfigError {
  file: string;
  /** Absent when the whole file is unusable. */
  server?: string;
  message: string;
}

export interface LoadedMcpConfig {
  servers: McpServerConfig[];
  errors: McpConfigError[];
}

const stringMap = z.record(z.string(), z.string());

// Not strict: files shared with Cursor or Claude Code carry keys of their own (`type`, `disabled`…).
const stdioEntrySchema = z.object({
  command: z.string().trim().min(1, "must not be empty"),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  cwd: z.string().optional(),
});

const httpEntrySchema = z.object({
  url: z.string().trim().min(1, "must not be empty"),
  headers: stringMap.default({}),
});

const configFileSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()) });

/**
 * Reads the `mcpServers` object of one file: each entry is checked and expanded on its own, so one
 * bad entry is reported with its name while the others load.
 */
export function parseMcpConfig(json: unknown, file: string, variables: ConfigVariables): LoadedMcpConfig {
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    return {
      servers: [],
      errors: [
        { file, message: `expected { "mcpServers": { "<name>": { … } } } (${issuesText(parsed.error)})` },
      ],
    };
  }
  const loaded: LoadedMcpConfig = { servers: [], errors: [] };
  for (const [name, entry] of Object.entries(parsed.data.mcpServers)) {
    const result = parseEntry(name, entry, file, variables);
    if (typeof result === "string") loaded.errors.push({ file, server: name, message: result });
    else loaded.servers.push(result);
  }
  return loaded;
}

/** The server's configuration, or what is wrong with its entry. */
function parseEntry(
  name: string,
  entry: unknown,
  file: string,
  variables: ConfigVariables,
): McpServerConfig | string {
  if (name.trim() === "") return "the server name is empty";
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return 'expected an object with "command" (stdio) or "url" (streamable HTTP)';
  }
  const hasCommand = "command" in entry;
  const hasUrl = "url" in entry;
  if (hasCommand === hasUrl) {
    return hasCommand
      ? 'has both "command" and "url"; keep one'
      : 'has neither "command" (stdio) nor "url" (streamable HTTP)';
  }

  const missing = new Set<string>();
  const expand = (text: string) => expandVariables(text, variables, missing);
  const config = hasCommand
    ? stdioConfig(name, file, entry, expand, variables.workspaceFolder)
    : httpConfig(name, file, entry, expand);
  // Checked first: an unexpanded `${env:HOST}` would otherwise be reported as a bad URL.
  if (missing.size > 0) {
    const names = [...missing].map((variable) => `\${env:${variable}}`).join(", ");
    return `uses ${names}, which ${missing.size === 1 ? "is" : "are"} not set`;
  }
  return config;
}

type Expand = (text: string) => string;

function stdioConfig(
  name: string,
  file: string,
  entry: object,
  expand: Expand,
  workspaceFolder: string,
): StdioServerConfig | string {
  const parsed = stdioEntrySchema.safeParse(entry);
  if (!parsed.success) return issuesText(parsed.error);
  return {
    name,
    source: file,
    transport: "stdio",
    command: expand(parsed.data.command),
    args: parsed.data.args.map(expand),
    env: expandValues(parsed.data.env, expand),
    cwd: path.resolve(workspaceFolder, expand(parsed.data.cwd ?? ".")),
  };
}

function httpConfig(name: string, file: string, entry: object, expand: Expand): HttpServerConfig | string {
  const parsed = httpEntrySchema.safeParse(entry);
  if (!parsed.success) return issuesText(parsed.error);
  const url = expand(parsed.data.url);
  const headers = expandValues(parsed.data.headers, expand);
  if (!isHttpUrl(url)) return `url "${url}" is not an http(s) URL`;
  return { name, source: file, transport: "http", url, headers };
}

function expandValues(map: Record<string, string>, expand: Expand): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value)]));
}

function isHttpUrl(text: string): boolean {
  const url = URL.parse(text);
  return url !== null && (url.protocol === "http:" || url.protocol === "https:");
}

/** One line per file or entry: `args[0]: expected string…`. */
function issuesText(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path
        .map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`))
        .join("");
      return where === "" ? issue.message : `${where.replace(/^\./, "")}: ${issue.message}`;
    })
    .join("; ");
}
