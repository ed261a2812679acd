import type { MemoryList, SettingsReply } from "@lathe/protocol";
import { type FormEvent, type ReactNode, useCallback, useId, useState } from "react";
import { api } from "../api/httpApi.js";
import { absoluteTime, relativeTime } from "../displayFormat.js";
import { type McpServerRow, mcpServerRows } from "./mcpServerRows.js";
import { PanelStatus, ResourceView } from "./PanelStatus.js";
import { useApiAction } from "./useApiAction.js";
import { useApiResource } from "./useApiResource.js";
import "./panels.css";
import { approvalModeExplanations, approvalModeNames, isApprovalMode } from "../approvalModes.js";

export interface SettingsPanelProps {
  projectRoot: string;
  sessionId?: string;
  approvalMode: string;
  onApprovalMode(mode: string): void;
}

export function SettingsPanel(props: SettingsPanelProps) {
  return (
    <div className="lp-panel lp-settings" data-testid="settings-panel">
      <ProvidersSection />
      <ApprovalModeSection
        approvalMode={props.approvalMode}
        appliesToSession={props.sessionId !== undefined}
        onApprovalMode={props.onApprovalMode}
      />
      <RulesSection projectRoot={props.projectRoot} />
      <McpServersSection projectRoot={props.projectRoot} />
      <MemoriesSection projectRoot={props.projectRoot} />
    </div>
  );
}

function SettingsSection(props: { title: string; hint?: string; children: ReactNode }) {
  return (
    <section className="lp-section" aria-label={props.title}>
      <h3 className="lp-heading">{props.title}</h3>
      {props.hint ? <p className="lp-hint">{props.hint}</p> : null}
      {props.children}
    </section>
  );
}

function ProvidersSection() {
  const { resource, reload } = useApiResource(api.settings);
  return (
    <SettingsSection title="Providers and keys" hint="Keys are stored on the server and never shown here.">
      <ResourceView resource={resource}>
        {(reply) => (
          <>
            {reply.providers.length === 0 ? (
              <PanelStatus kind="empty">No providers</PanelStatus>
            ) : (
              <ul className="lp-list">
                {reply.providers.map((provider) => (
                  <ProviderKeyRow
                    key={provider.name}
                    provider={provider}
                    baseUrls={savedBaseUrls(reply)}
                    onSaved={reload}
                  />
                ))}
              </ul>
            )}
            <DefaultModelForm key={savedModel(reply)} savedModel={savedModel(reply)} onSaved={reload} />
          </>
        )}
      </ResourceView>
    </SettingsSection>
  );
}

/** `baseUrls` of the stored settings: a base URL per provider. */
function savedBaseUrls(reply: SettingsReply): Record<string, string> {
  const stored = reply.settings.baseUrls;
  if (typeof stored !== "object" || stored === null) return {};
  return Object.fromEntries(
    Object.entries(stored).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** Providers that run where the user says: no default address. Ollama also needs no key. */
const needsBaseUrl = new Set(["ollama", "openai-compatible"]);

function savedModel(reply: SettingsReply): string {
  const model = reply.settings.model;
  return typeof model === "string" ? model : "";
}

const keySourceLabels: Record<SettingsReply["providers"][number]["source"], string> = {
  env: "from environment",
  credentials: "stored",
  none: "no key",
};

function ProviderKeyRow(props: {
  provider: SettingsReply["providers"][number];
  baseUrls: Record<string, string>;
  onSaved(): void;
}) {
  const { provider } = props;
  const [draftKey, setDraftKey] = useState("");
  const [saved, setSaved] = useState(false);
  const save = useApiAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const key = draftKey.trim();
    if (key === "") return;
    const result = await save.run(() => api.setKey(provider.name, key));
    if (!result.ok) return;
    // The key leaves the page as soon as the server has it.
    setDraftKey("");
    setSaved(true);
    props.onSaved();
  };
  return (
    <li className="lp-item">
      <div className="lp-item-line">
        <span className="lp-item-title">{provider.name}</span>
        {provider.name === "ollama" ? (
          <span className="lp-badge lp-badge-ok">needs no key</span>
        ) : (
          <span className={`lp-badge ${provider.hasKey ? "lp-badge-ok" : "lp-badge-idle"}`}>
            {provider.hasKey ? keySourceLabels[provider.source] : "no key"}
          </span>
        )}
      </div>
      <BaseUrlForm provider={provider.name} baseUrls={props.baseUrls} onSaved={props.onSaved} />
      {provider.name !== "ollama" && (
        <form className="lp-inline-form" onSubmit={submit}>
          <input
            type="password"
            className="lp-input"
            autoComplete="new-password"
            spellCheck={false}
            placeholder={provider.hasKey ? "Replace key" : "API key"}
            aria-label={`${provider.name} API key`}
            value={draftKey}
            onChange={(event) => {
              setDraftKey(event.target.value);
              setSaved(false);
            }}
          />
          <button type="submit" className="lp-button" disabled={save.pending || draftKey.trim() === ""}>
            {save.pending ? "Saving…" : "Save"}
          </button>
        </form>
      )}
      {save.error ? <PanelStatus kind="error">{save.error}</PanelStatus> : null}
      {saved ? <p className="lp-hint">Key saved.</p> : null}
    </li>
  );
}

/** Where the provider's API is: kept in the settings' `baseUrls`, read by the next session opened. */
function BaseUrlForm(props: { provider: string; baseUrls: Record<string, string>; onSaved(): void }) {
  const { provider, baseUrls } = props;
  const stored = baseUrls[provider] ?? "";
  const [draft, setDraft] = useState(stored);
  const save = useApiAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { [provider]: _, ...others } = baseUrls;
    const url = draft.trim();
    const next = url === "" ? others : { ...others, [provider]: url };
    // No base URL left: the field goes (null removes it), not an empty map.
    const result = await save.run(() =>
      api.updateSettings({ baseUrls: Object.keys(next).length === 0 ? null : next }),
    );
    if (result.ok) props.onSaved();
  };
  return (
    <form className="lp-inline-form" onSubmit={submit}>
      <input
        type="url"
        className="lp-input"
        spellCheck={false}
        placeholder={needsBaseUrl.has(provider) ? "Base URL (needed)" : "Base URL (default)"}
        aria-label={`${provider} base URL`}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
      />
      <button type="submit" className="lp-button" disabled={save.pending || draft.trim() === stored}>
        {save.pending ? "Saving…" : "Save"}
      </button>
      {save.error ? <PanelStatus kind="error">{save.error}</PanelStatus> : null}
    </form>
  );
}

function DefaultModelForm(props: { savedModel: string; onSaved(): void }) {
  const [draftModel, setDraftModel] = useState(props.savedModel);
  const inputId = useId();
  const listId = useId();
  // The catalog's models of the providers that have a key (and the configured ones), as choices.
  const { resource: info } = useApiResource(api.info);
  const save = useApiAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save.run(() => api.updateSettings({ model: draftModel.trim() }));
    if (result.ok) props.onSaved();
  };
  return (
    <form className="lp-field" onSubmit={submit}>
      <label className="lp-label" htmlFor={inputId}>
        Default model
      </label>
      <div className="lp-inline-form">
        <input
          id={inputId}
          className="lp-input"
          spellCheck={false}
          placeholder="provider:model"
          list={listId}
          value={draftModel}
          onChange={(event) => setDraftModel(event.target.value)}
        />
        <datalist id={listId} data-testid="model-choices">
          {info.status === "ready" && info.data.models.map((model) => <option key={model} value={model} />)}
        </datalist>
        <button
          type="submit"
          className="lp-button"
          disabled={save.pending || draftModel.trim() === "" || draftModel.trim() === props.savedModel}
        >
          {save.pending ? "Saving…" : "Save"}
        </button>
      </div>
      {save.error ? <PanelStatus kind="error">{save.error}</PanelStatus> : null}
    </form>
  );
}

function ApprovalModeSection(props: {
  approvalMode: string;
  appliesToSession: boolean;
  onApprovalMode(mode: string): void;
}) {
  const known = isApprovalMode(props.approvalMode);
  return (
    <SettingsSection
      title="Approval mode"
      hint={props.appliesToSession ? "Applies to this session." : "Applies to new sessions."}
    >
      <select
        className="lp-input"
        aria-label="Approval mode"
        value={props.approvalMode}
        onChange={(event) => props.onApprovalMode(event.target.value)}
      >
        {/* A mode this UI does not know is still shown rather than silently replaced. */}
        {known ? null : <option value={props.approvalMode}>{props.approvalMode}</option>}
        {approvalModeNames.map((mode) => (
          <option key={mode} value={mode} title={approvalModeExplanations[mode]}>
            {mode}
          </option>
        ))}
      </select>
      <p className="lp-hint">
        {isApprovalMode(props.approvalMode) ? approvalModeExplanations[props.approvalMode] : "Unknown mode."}
      </p>
    </SettingsSection>
  );
}

function RulesSection(props: { projectRoot: string }) {
  const { projectRoot } = props;
  const load = useCallback(() => api.rules(projectRoot), [projectRoot]);
  const { resource } = useApiResource(load);
  return (
    <SettingsSection title="Rules">
      <ResourceView
        resource={resource}
        emptyText="No rule files"
        isEmpty={(reply) => reply.rules.length === 0}
      >
        {(reply) => (
          <ul className="lp-list">
            {reply.rules.map((rule) => (
              <li key={rule.path} className="lp-item" title={rule.path}>
                <div className="lp-item-line">
                  <span className="lp-item-title">{rule.name}</span>
                  <span className="lp-badge lp-badge-idle">{rule.activation}</span>
                </div>
                <div className="lp-item-sub lp-mono">{rule.path}</div>
                {rule.description ? <div className="lp-item-sub">{rule.description}</div> : null}
              </li>
            ))}
          </ul>
        )}
      </ResourceView>
    </SettingsSection>
  );
}

function McpServersSection(props: { projectRoot: string }) {
  const { projectRoot } = props;
  const load = useCallback(() => api.mcpServers(projectRoot), [projectRoot]);
  const { resource, reload: reloadList } = useApiResource(load);
  const probe = useCallback(() => api.mcpStatus(projectRoot), [projectRoot]);
  const { resource: probed, reload } = useApiResource(probe);
  const status =
    probed.status === "loading" || (probed.status === "ready" && probed.refreshing)
      ? ({ checking: true } as const)
      : probed.status === "ready"
        ? { checking: false as const, reply: probed.data }
        : { checking: false as const, error: probed.error };
  return (
    <SettingsSection title="MCP servers">
      <ResourceView
        resource={resource}
        emptyText="No MCP servers configured"
        isEmpty={(reply) => reply.servers.length === 0}
      >
        {(reply) => (
          <>
            <ul className="lp-list">
              {mcpServerRows(reply, status).map((row) => (
                <McpServerItem
                  key={`${row.source}:${row.name}`}
                  row={row}
                  projectRoot={projectRoot}
                  onRemoved={() => {
                    reloadList();
                    reload();
                  }}
                />
              ))}
            </ul>
            <button type="button" className="lp-button" onClick={reload} disabled={status.checking}>
              Check again
            </button>
          </>
        )}
      </ResourceView>
      <AddMcpServerForm
        projectRoot={projectRoot}
        onAdded={() => {
          reloadList();
          reload();
        }}
      />
    </SettingsSection>
  );
}

/**
 * Adds a server to the user's own `mcp.json`: a URL makes an HTTP server; anything else is a
 * command line, split at spaces (a server whose arguments need quoting is added with `lathe mcp add`).
 */
function AddMcpServerForm(props: { projectRoot: string; onAdded(): void }) {
  const [name, setName] = useState("");
  const [target, setTarget] = useState("");
  const add = useApiAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const line = target.trim();
    const [command = "", ...args] = line.split(/\s+/);
    const server = /^https?:\/\//i.test(line)
      ? { name: name.trim(), url: line }
      : { name: name.trim(), command, args };
    const result = await add.run(() => api.addMcpServer(props.projectRoot, server));
    if (!result.ok) return;
    setName("");
    setTarget("");
    props.onAdded();
  };
  return (
    <form className="lp-field" onSubmit={submit} data-testid="add-mcp-server">
      <div className="lp-inline-form">
        <input
          className="lp-input"
          spellCheck={false}
          placeholder="Name"
          aria-label="MCP server name"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="lp-inline-form">
        <input
          className="lp-input"
          spellCheck={false}
          placeholder="Command and arguments, or an http(s) URL"
          aria-label="MCP server command or URL"
          value={target}
          onChange={(event) => setTarget(event.target.value)}
        />
        <button
          type="submit"
          className="lp-button"
          disabled={add.pending || name.trim() === "" || target.trim() === ""}
        >
          {add.pending ? "Adding…" : "Add"}
        </button>
      </div>
      {add.error ? <PanelStatus kind="error">{add.error}</PanelStatus> : null}
    </form>
  );
}

function McpServerItem(props: { row: McpServerRow; projectRoot: string; onRemoved(): void }) {
  const { row } = props;
  const remove = useApiAction();
  const offers = [
    ["tools", row.tools.map((tool) => tool.name)],
    ["resources", row.resources.map((resource) => resource.uri)],
    ["prompts", row.prompts.map((prompt) => prompt.name)],
  ] as const;
  return (
    <li className="lp-item" data-testid={`mcp-server-${row.name}`}>
      <div className="lp-item-line">
        <span className="lp-item-title">{row.name}</span>
        <span className={`lp-badge lp-badge-${row.tone}`}>{row.state}</span>
        <span className="lp-badge lp-badge-idle">{row.transport}</span>
      </div>
      {row.error ? <div className="lp-item-sub lp-error-text">{row.error}</div> : null}
      <div className="lp-item-sub lp-mono" title={row.target}>
        {row.target}
      </div>
      {offers.map(([label, names]) =>
        names.length > 0 ? (
          <div key={label} className="lp-item-sub" title={names.join("\n")}>
            {label}: {names.join(", ")}
          </div>
        ) : null,
      )}
      <div className="lp-item-sub lp-muted" title={row.source}>
        {row.source}
      </div>
      {row.removable && (
        <button
          type="button"
          className="lp-button lp-danger"
          data-testid="remove-mcp-server"
          disabled={remove.pending}
          onClick={async () => {
            const result = await remove.run(() => api.removeMcpServer(props.projectRoot, row.name));
            if (result.ok) props.onRemoved();
          }}
        >
          Remove
        </button>
      )}
      {remove.error ? <PanelStatus kind="error">{remove.error}</PanelStatus> : null}
    </li>
  );
}

function MemoriesSection(props: { projectRoot: string }) {
  const { projectRoot } = props;
  const load = useCallback(() => api.memories(projectRoot), [projectRoot]);
  const { resource, reload } = useApiResource(load);
  const now = Date.now();
  return (
    <SettingsSection title="Memories">
      <ResourceView
        resource={resource}
        emptyText="No memories"
        isEmpty={(reply) => reply.memories.length === 0}
      >
        {(reply) => (
          <ul className="lp-list">
            {reply.memories.map((memory) => (
              <MemoryRow
                key={memory.id}
                projectRoot={projectRoot}
                memory={memory}
                now={now}
                onDeleted={reload}
              />
            ))}
          </ul>
        )}
      </ResourceView>
    </SettingsSection>
  );
}

function MemoryRow(props: {
  projectRoot: string;
  memory: MemoryList["memories"][number];
  now: number;
  onDeleted(): void;
}) {
  const { memory } = props;
  const remove = useApiAction();
  const deleteMemory = async () => {
    const result = await remove.run(() => api.deleteMemory(props.projectRoot, memory.id));
    if (result.ok) props.onDeleted();
  };
  return (
    <li className="lp-item">
      <div className="lp-item-line">
        <span className="lp-item-title" title={memory.title}>
          {memory.title}
        </span>
        <button
          type="button"
          className="lp-button lp-danger lp-push-right"
          disabled={remove.pending}
          aria-label={`Delete memory ${memory.title}`}
          onClick={deleteMemory}
        >
          {remove.pending ? "Deleting…" : "Delete"}
        </button>
      </div>
      <div className="lp-item-line lp-item-sub">
        <span className="lp-badge lp-badge-idle">{memory.scope}</span>
        <span className="lp-muted" title={absoluteTime(memory.updatedAt)}>
          {relativeTime(memory.updatedAt, props.now)}
        </span>
      </div>
      <div className="lp-item-sub lp-clamp">{memory.content}</div>
      {remove.error ? <PanelStatus kind="error">{remove.error}</PanelStatus> : null}
    </li>
  );
}
