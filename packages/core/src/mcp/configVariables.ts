/** What `${…}` in an MCP server entry may stand for, spelled as in VS Code and Cursor. */
export interface ConfigVariables {
  /** The project root. */
  workspaceFolder: string;
  env: Readonly<Record<string, string | undefined>>;
}

const variablePattern = /\$\{(?:workspaceFolder|env:([^}]*))\}/g;

/**
 * Replaces `${workspaceFolder}` and `${env:NAME}` in one value. Unset variables are added to
 * `missing` rather than replaced by "", so that `Bearer ${env:TOKEN}` without a token is reported
 * instead of sent. Other `${…}` are left as written: they may mean something to the server.
 */
export function expandVariables(text: string, variables: ConfigVariables, missing: Set<string>): string {
  return text.replace(variablePattern, (whole, envName: string | undefined) => {
    if (envName === undefined) return variables.workspaceFolder;
    const value = variables.env[envName];
    if (value === undefined) {
      missing.add(envName);
      return whole;
    }
    return value;
  });
}
