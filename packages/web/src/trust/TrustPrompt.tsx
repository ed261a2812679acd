import type { TrustReply } from "@lathe/protocol";
import { useCallback, useState } from "react";
import { api } from "../api/httpApi.js";
import { describeFailure } from "../displayFormat.js";
import { useApiResource } from "../panels/useApiResource.js";
import "./trust.css";

const kindNames: Record<TrustReply["files"][number]["kind"], string> = {
  hooks: "hooks",
  mcp: "MCP servers",
  settings: "permission rules",
  agent: "agent",
  command: "slash command",
  pipeline: "cloud pipeline",
};

/** Whether the folder holds files that would run or widen something and the user has not trusted them. */
export function needsTrust(reply: TrustReply): boolean {
  return reply.status === "untrusted" || reply.status === "changed";
}

/**
 * Asks before the project's own hooks, MCP servers, allow rules and agents take effect, as a
 * dialog when the folder is opened. Until the user trusts the folder, sessions run without them;
 * declining keeps a "Restricted" badge in the top bar that opens the dialog again.
 */
export function TrustPrompt({ projectRoot, onTrusted }: { projectRoot: string; onTrusted(): void }) {
  const load = useCallback(() => api.trust(projectRoot), [projectRoot]);
  const { resource, reload } = useApiResource(load);
  const [declined, setDeclined] = useState<string>();
  const [failure, setFailure] = useState<string>();
  if (resource.status !== "ready" || !needsTrust(resource.data)) return null;
  const reply = resource.data;
  if (declined === reply.fingerprint) {
    return (
      <button
        type="button"
        className="trust-badge"
        data-testid="trust-badge"
        title="This folder's hooks, MCP servers, allow rules and agents are not in effect"
        onClick={() => setDeclined(undefined)}
      >
        Restricted
      </button>
    );
  }
  const trust = async () => {
    try {
      await api.grantTrust(projectRoot, reply.fingerprint);
      setFailure(undefined);
      reload();
      onTrusted();
    } catch (error) {
      setFailure(describeFailure(error));
    }
  };
  return (
    <div className="trust-overlay">
      <div
        className="trust-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="trust-title"
        data-testid="trust-prompt"
      >
        <h2 id="trust-title">Trust this folder?</h2>
        <p className="trust-root">{reply.projectRoot}</p>
        <p>
          {reply.status === "changed"
            ? "These files changed since you trusted the folder. Until you trust it again, sessions here run without them."
            : "This folder has files that run programs or widen what Lathe may do. Until you trust it, sessions here run without them."}
        </p>
        <ul className="trust-files">
          {reply.files.map((file) => (
            <li key={file.path}>
              <code>{file.path}</code> <span className="trust-kind">{kindNames[file.kind]}</span>
              {reply.changes.some((change) => change.path === file.path) && (
                <span className="trust-kind">changed</span>
              )}
              <ul>
                {file.effects.map((effect) => (
                  <li key={effect}>{effect}</li>
                ))}
              </ul>
            </li>
          ))}
          {reply.changes
            .filter((change) => change.change === "removed")
            .map((change) => (
              <li key={change.path}>
                <code>{change.path}</code> <span className="trust-kind">removed</span>
              </li>
            ))}
        </ul>
        <p className="trust-hint">
          Trust only folders whose contents you know: a cloned repository can plant these files.
        </p>
        {failure && <p className="trust-failure">{failure}</p>}
        <div className="trust-actions">
          <button type="button" data-testid="trust-decline" onClick={() => setDeclined(reply.fingerprint)}>
            Don't trust
          </button>
          <button type="button" className="primary" data-testid="trust-accept" onClick={() => void trust()}>
            Trust folder
          </button>
        </div>
      </div>
    </div>
  );
}
