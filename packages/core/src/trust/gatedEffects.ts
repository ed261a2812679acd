import { parseFrontMatter } from "../context/rules/frontMatter.js";
import { parseHooksConfig } from "../hooks/hookConfig.js";
import { type McpServerConfig, parseMcpConfig } from "../mcp/mcpConfig.js";
import { ruleListsOf } from "../policy/rules/settingsFiles.js";
import type { GatedFile } from "./gatedFiles.js";

/** A gated file with what it would do once trusted, one line per hook, server, rule or agent. */
export interface GatedFileEffects {
  path: string;
  kind: GatedFile["kind"];
  effects: string[];
}

/**
 * `${env:NAME}` reads as itself, so a description shows the configuration as written and a token
 * passed through the environment is never shown.
 */
const envAsWritten: Readonly<Record<string, string | undefined>> = new Proxy(
  {},
  { get: (_target, name) => (typeof name === "string" ? `\${env:${name}}` : undefined) },
);

/** What each gated file would run or grant, read from the text the trust check hashed. */
export function describeGatedFiles(projectRoot: string, files: readonly GatedFile[]): GatedFileEffects[] {
  return files.map((file) => ({ path: file.path, kind: file.kind, effects: effectsOf(projectRoot, file) }));
}

function effectsOf(projectRoot: string, file: GatedFile): string[] {
  if (file.kind === "agent") return [`sub-agent "${agentName(file)}" with its own instructions and tools`];
  if (file.kind === "command") return [`slash command /${baseName(file)} with its own prompt text`];
  if (file.kind === "pipeline") return pipelineEffects(file);
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch {
    return ["not valid JSON: it would be reported as an error, not run"];
  }
  switch (file.kind) {
    case "hooks": {
      const loaded = parseHooksConfig(json, file.path);
      const runs = loaded.hooks.map(
        (hook) => `${hook.event}${hook.matcher ? ` (${hook.matcher})` : ""} hook runs: ${hook.command}`,
      );
      return [...runs, ...loaded.errors.map((error) => error.message)];
    }
    case "mcp": {
      const loaded = parseMcpConfig(json, file.path, { workspaceFolder: projectRoot, env: envAsWritten });
      const servers = loaded.servers.map((server) => `MCP server "${server.name}" ${serverTarget(server)}`);
      return [...servers, ...loaded.errors.map((error) => `${error.server ?? "file"}: ${error.message}`)];
    }
    case "settings": {
      if (typeof json !== "object" || json === null || Array.isArray(json)) return [];
      const lists = ruleListsOf(json as Record<string, unknown>, file.path);
      if (!lists.ok) return [lists.message];
      return lists.lists.allow.map(
        (rule) => `allows ${typeof rule === "string" ? rule : JSON.stringify(rule)}`,
      );
    }
  }
}

function serverTarget(server: McpServerConfig): string {
  if (server.transport === "http") return `connects to ${server.url}`;
  return `runs: ${[server.command, ...server.args].map(shellWord).join(" ")}`;
}

/** An argument as a shell would need it, so the command line reads unambiguously. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The pipeline, and the command its verify step would run after each coding step. */
function pipelineEffects(file: GatedFile): string[] {
  const parsed = parseFrontMatter(file.text);
  const data = parsed.ok ? parsed.data : {};
  const name = typeof data.name === "string" ? data.name : baseName(file);
  const effects = [`cloud pipeline "${name}" with its own steps and agent instructions`];
  if (typeof data.verify === "string") effects.push(`verify runs: ${data.verify}`);
  return effects;
}

/** The file's name without its folder and `.md`: a command's name, and the default of the others. */
function baseName(file: GatedFile): string {
  return (file.path.split("/").at(-1) ?? file.path).replace(/\.md$/, "");
}

/** The front matter's `name:`, else the file's name without `.md`. */
function agentName(file: GatedFile): string {
  const named = /^---\r?\n(?:.*\r?\n)*?name:\s*["']?([^"'\r\n]+?)["']?\s*\r?\n/.exec(file.text);
  return named?.[1] ?? baseName(file);
}
