import type { Mode, ServerInfo } from "@lathe/protocol";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiFailure, api } from "./api/httpApi.js";
import { ChatView } from "./chat/ChatView.js";
import { CloudView } from "./cloud/index.js";
import {
  ChangesView,
  CheckpointList,
  checkpointLabel,
  FileTree,
  SessionList,
  SettingsPanel,
  TraceView,
} from "./panels/index.js";
import { readAddress, updateAddress } from "./sessionAddress.js";
import { useSessionStore } from "./state/sessionStore.js";
import type { UserItem } from "./state/sessionView.js";
import { TrustPrompt } from "./trust/TrustPrompt.js";

const modes: Mode[] = ["agent", "plan", "ask", "debug"];
type SideTab = "changes" | "checkpoints" | "trace" | "settings";
/** What the middle of the page shows: the chat, or the Cloud tab's tasks. */
type CenterView = "chat" | "cloud";

function describe(error: unknown): string {
  if (error instanceof ApiFailure) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export function App() {
  const [info, setInfo] = useState<ServerInfo>();
  const [projectRoot, setProjectRoot] = useState<string>();
  const [model, setModel] = useState<string>();
  const [approvalMode, setApprovalMode] = useState("ask_first");
  const [failure, setFailure] = useState<string>();
  const [refresh, setRefresh] = useState(0);
  const [tab, setTab] = useState<SideTab>("checkpoints");
  const [centerView, setCenterView] = useState<CenterView>(() =>
    readAddress(window.location.hash).view === "cloud" ? "cloud" : "chat",
  );
  const [cloudTaskId, setCloudTaskId] = useState(() => readAddress(window.location.hash).cloudTaskId);
  // On a narrow window the side panels are drawers over the chat: which one is out, if any.
  const [drawer, setDrawer] = useState<Drawer>();
  const [insertion, setInsertion] = useState<{ text: string; nonce: number }>();
  const view = useSessionStore((store) => store.view);
  const openView = useSessionStore((store) => store.open);
  const setViewMode = useSessionStore((store) => store.setMode);
  const sessionId = view?.sessionId;
  const mode = view?.status.mode ?? info?.defaultMode ?? "agent";
  const busy = view !== undefined && view.status.state !== "idle";
  // The panels show what runs change (session states, checkpoints, spans): they reload on an
  // explicit refresh and whenever this session starts or ends a run.
  const panelRefresh = refresh * 2 + (busy ? 1 : 0);

  const fail = useCallback((error: unknown) => setFailure(describe(error)), []);

  const show = useCallback(
    (id: string, root: string) => {
      updateAddress({ sessionId: id, projectRoot: root });
      void openView(id);
    },
    [openView],
  );

  /** Opens a session: live ones are joined, stored ones reopened (resumed) first. */
  const openSession = useCallback(
    async (id: string, root: string) => {
      try {
        const live = await api.liveSessions();
        if (!live.some((session) => session.id === id)) {
          await api.openSession({ projectRoot: root, resume: id, model });
        }
        show(id, root);
        setRefresh((count) => count + 1);
      } catch (error) {
        fail(error);
      }
    },
    [fail, model, show],
  );

  /** Shows a folder once the server serves it: the panels read its files, settings and trust. */
  const openProject = useCallback(
    async (root: string) => {
      try {
        await api.openProject(root);
        setProjectRoot(root);
      } catch (error) {
        fail(error);
      }
    },
    [fail],
  );

  // The address is read once, on the first load; later changes to the callbacks must not re-open.
  const firstLoad = useRef(true);
  useEffect(() => {
    if (!firstLoad.current) return;
    firstLoad.current = false;
    api
      .info()
      .then((loaded) => {
        setInfo(loaded);
        setApprovalMode(loaded.defaultApprovalMode);
        if (loaded.defaultModel) setModel(loaded.defaultModel);
        const address = readAddress(window.location.hash);
        const root = address.projectRoot ?? loaded.defaultProjectRoot;
        void openProject(root).then(() => {
          if (address.sessionId) void openSession(address.sessionId, root);
        });
      })
      .catch(fail);
  }, [fail, openProject, openSession]);

  const newSession = async () => {
    if (!projectRoot) return;
    try {
      const created = await api.openSession({ projectRoot, mode, model });
      if (approvalMode !== info?.defaultApprovalMode) await api.setApprovalMode(created.id, approvalMode);
      show(created.id, projectRoot);
      setRefresh((count) => count + 1);
    } catch (error) {
      fail(error);
    }
  };

  const changeMode = (next: Mode) => {
    setViewMode(next);
    if (sessionId) api.setMode(sessionId, next).catch(fail);
  };
  const cycleMode = () => changeMode(modes[(modes.indexOf(mode) + 1) % modes.length]!);

  const showCenter = (next: CenterView) => {
    setCenterView(next);
    updateAddress({ view: next === "cloud" ? "cloud" : undefined });
  };
  const showCloudTask = (taskId: string) => {
    setCloudTaskId(taskId);
    updateAddress({ cloudTaskId: taskId });
  };

  const changeApprovalMode = (next: string) => {
    setApprovalMode(next);
    if (sessionId) api.setApprovalMode(sessionId, next).catch(fail);
  };

  /** A model is chosen when a session opens: switching reopens the idle session with the new one. */
  const changeModel = async (next: string) => {
    setModel(next);
    if (!sessionId || !projectRoot || busy) return;
    try {
      await api.closeSession(sessionId);
      await api.openSession({ projectRoot, resume: sessionId, model: next });
      show(sessionId, projectRoot);
    } catch (error) {
      fail(error);
    }
  };

  const restore = useCallback(
    async (item: UserItem) => {
      if (!sessionId || !item.checkpointId) return;
      if (!window.confirm("Put the project files and the conversation back to before this message?")) return;
      try {
        await api.restoreCheckpoint(sessionId, item.checkpointId);
        void openView(sessionId);
        setRefresh((count) => count + 1);
      } catch (error) {
        fail(error);
      }
    },
    [sessionId, openView, fail],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && busy && sessionId) api.cancel(sessionId).catch(fail);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, sessionId, fail]);

  if (!projectRoot) {
    return <div className="loading">{failure ?? "Connecting to Lathe…"}</div>;
  }
  return (
    <div className="app" data-testid="app" data-drawer={drawer} data-view={centerView}>
      <header className="top-bar">
        <DrawerToggle side="left" label="Sessions" drawer={drawer} onToggle={setDrawer} />
        <span className="brand">Lathe</span>
        <nav className="view-switch" aria-label="View">
          {(["chat", "cloud"] as const).map((name) => (
            <button
              type="button"
              key={name}
              className={centerView === name ? "active" : ""}
              aria-pressed={centerView === name}
              data-testid={`view-${name}`}
              onClick={() => showCenter(name)}
            >
              {name === "chat" ? "Chat" : "Cloud"}
            </button>
          ))}
        </nav>
        <input
          className="project-root"
          aria-label="Project folder"
          defaultValue={projectRoot}
          onKeyDown={(event) => {
            if (event.key === "Enter") void openProject(event.currentTarget.value.trim() || projectRoot);
          }}
        />
        <select
          aria-label="Mode"
          data-testid="mode-select"
          value={mode}
          onChange={(event) => changeMode(event.target.value as Mode)}
        >
          {modes.map((name) => (
            <option key={name} value={name}>
              {name[0]!.toUpperCase() + name.slice(1)}
            </option>
          ))}
        </select>
        <select
          aria-label="Model"
          data-testid="model-select"
          value={model ?? ""}
          disabled={busy}
          onChange={(event) => void changeModel(event.target.value)}
        >
          {model === undefined && <option value="">Default model</option>}
          {[...new Set([...(model ? [model] : []), ...(info?.models ?? [])])].map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <TrustPrompt
          key={projectRoot}
          projectRoot={projectRoot}
          onTrusted={() => setRefresh((count) => count + 1)}
        />
        <DrawerToggle side="right" label="Panels" drawer={drawer} onToggle={setDrawer} />
        {failure && (
          <button
            type="button"
            className="failure"
            data-testid="failure"
            onClick={() => setFailure(undefined)}
          >
            {failure} ✕
          </button>
        )}
      </header>
      <aside className="left-side">
        <SessionList
          projectRoot={projectRoot}
          activeId={sessionId}
          activeStatus={view ? { state: view.status.state, mode: view.status.mode } : undefined}
          refreshKey={panelRefresh}
          onOpen={(id) => {
            setDrawer(undefined);
            void openSession(id, projectRoot);
          }}
          onNew={() => void newSession()}
        />
        <FileTree
          projectRoot={projectRoot}
          // Again after every tool call: a file the agent wrote shows up while the run goes on.
          refreshKey={refresh + (view?.fileRevision ?? 0)}
          onMention={(path) => setInsertion({ text: `@${path}`, nonce: Date.now() })}
        />
      </aside>
      {drawer && (
        <button
          type="button"
          className="drawer-backdrop"
          aria-label="Close the panel"
          onClick={() => setDrawer(undefined)}
        />
      )}
      {centerView === "cloud" && (
        <main className="cloud-center">
          <CloudView
            projectRoot={projectRoot}
            taskId={cloudTaskId}
            onSelect={showCloudTask}
            onProjectChanged={() => setRefresh((count) => count + 1)}
          />
        </main>
      )}
      {/* Kept while the Cloud tab shows, so a draft and the chat's scroll survive the switch. */}
      <main className="center" hidden={centerView === "cloud"}>
        <ChatView
          projectRoot={projectRoot}
          approvalMode={approvalMode}
          insertion={insertion}
          onApprovalMode={changeApprovalMode}
          onCycleMode={cycleMode}
          onRestore={(item) => void restore(item)}
          onOpenSettings={() => {
            setTab("settings");
            setDrawer("right");
          }}
          onFailure={setFailure}
        />
      </main>
      <aside className="right-side">
        <nav className="tabs">
          {(["changes", "checkpoints", "trace", "settings"] as const).map((name) => (
            <button
              type="button"
              key={name}
              className={tab === name ? "active" : ""}
              data-testid={`tab-${name}`}
              onClick={() => setTab(name)}
            >
              {name[0]!.toUpperCase() + name.slice(1)}
            </button>
          ))}
        </nav>
        {tab === "changes" && sessionId && (
          <ChangesView
            sessionId={sessionId}
            runKey={panelRefresh}
            filesKey={view?.fileRevision ?? 0}
            busy={busy}
            onRestored={() => {
              void openView(sessionId);
              setRefresh((count) => count + 1);
            }}
          />
        )}
        {tab === "checkpoints" && sessionId && (
          <CheckpointList
            sessionId={sessionId}
            refreshKey={panelRefresh}
            labelOf={(checkpoint) => checkpointLabel(checkpoint, view?.items ?? [])}
            onRestored={() => {
              void openView(sessionId);
              setRefresh((count) => count + 1);
            }}
          />
        )}
        {tab === "trace" && sessionId && <TraceView sessionId={sessionId} refreshKey={panelRefresh} />}
        {tab === "settings" && (
          <SettingsPanel
            projectRoot={projectRoot}
            sessionId={sessionId}
            approvalMode={approvalMode}
            onApprovalMode={changeApprovalMode}
          />
        )}
      </aside>
    </div>
  );
}

type Drawer = "left" | "right";

/** On a narrow window, the button that slides a side panel out over the chat, or back. */
function DrawerToggle(props: {
  side: Drawer;
  label: string;
  drawer: Drawer | undefined;
  onToggle(drawer: Drawer | undefined): void;
}) {
  const open = props.drawer === props.side;
  return (
    <button
      type="button"
      className={`drawer-toggle drawer-toggle-${props.side}`}
      data-testid={`toggle-${props.side}`}
      aria-expanded={open}
      onClick={() => props.onToggle(open ? undefined : props.side)}
    >
      {props.label}
    </button>
  );
}
