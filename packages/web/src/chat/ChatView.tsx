import { summarizeToolCall } from "@lathe/protocol";
import { useCallback, useEffect, useLayoutEffect, useRef } from "react";
import { type ApprovalScope, api } from "../api/httpApi.js";
import { useSessionStore } from "../state/sessionStore.js";
import type { ChatItem, PlanItem, SessionView, ToolItem, UserItem } from "../state/sessionView.js";
import { AgentStatusBar } from "./AgentStatusBar.js";
import { ApprovalBar } from "./ApprovalBar.js";
import { Composer } from "./Composer.js";
import { AssistantMessage, NoticeLine, UserMessage } from "./MessageItems.js";
import { PlanCard } from "./PlanCard.js";
import { QuestionCard } from "./QuestionCard.js";
import { SubAgentCard } from "./SubAgentCard.js";
import { TodoPanel } from "./TodoPanel.js";
import { ToolCallCard } from "./ToolCallCard.js";

export interface ChatViewProps {
  projectRoot: string;
  approvalMode: string;
  insertion?: { text: string; nonce: number };
  onApprovalMode(mode: string): void;
  onCycleMode(): void;
  onRestore(item: UserItem): void;
  /** Shows the Settings tab (a notice about a key points there). */
  onOpenSettings(): void;
  /** An action failed: the page shows it. */
  onFailure(message: string): void;
}

function ChatItemView({
  item,
  view,
  idle,
  handlers,
}: {
  item: ChatItem;
  view: SessionView;
  idle: boolean;
  handlers: {
    approve(approvalId: string, always?: ApprovalScope): void;
    reject(approvalId: string): void;
    retry(item: ToolItem): void;
    restore(item: UserItem): void;
    openSettings(): void;
    runPlan(item: PlanItem): void;
  };
}) {
  switch (item.kind) {
    case "user":
      return <UserMessage item={item} onRestore={idle ? handlers.restore : undefined} />;
    case "assistant":
      return <AssistantMessage item={item} />;
    case "tool":
      return (
        <ToolCallCard
          item={item}
          steps={view.stepsByRun.get(item.runId) ?? item.step}
          onApprove={handlers.approve}
          onReject={handlers.reject}
          onRetry={handlers.retry}
        />
      );
    case "subagent":
      return <SubAgentCard item={item} />;
    case "notice":
      return <NoticeLine item={item} onOpenSettings={handlers.openSettings} />;
    case "plan":
      return <PlanCard item={item} onRun={idle ? handlers.runPlan : undefined} />;
  }
}

/** The open session: its conversation, what waits for the user, and the message box. */
export function ChatView(props: ChatViewProps) {
  const view = useSessionStore((store) => store.view);
  const connection = useSessionStore((store) => store.connection);
  const failure = useSessionStore((store) => store.failure);
  const showMode = useSessionStore((store) => store.setMode);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const { onFailure } = props;

  const sessionId = view?.sessionId;
  const report = useCallback(
    (action: Promise<unknown>) => {
      action.catch((error: unknown) => onFailure(error instanceof Error ? error.message : String(error)));
    },
    [onFailure],
  );
  const handlers = {
    approve: useCallback(
      (approvalId: string, always?: ApprovalScope) =>
        sessionId && report(api.approve(sessionId, approvalId, always)),
      [sessionId, report],
    ),
    reject: useCallback(
      (approvalId: string) => sessionId && report(api.reject(sessionId, approvalId)),
      [sessionId, report],
    ),
    retry: useCallback(
      (item: ToolItem) =>
        sessionId &&
        report(
          api.send(
            sessionId,
            `The step "${summarizeToolCall(item.name, item.arguments)}" failed${item.error ? ` (${item.error.code}: ${item.error.message})` : ""}. Try it again.`,
          ),
        ),
      [sessionId, report],
    ),
    restore: props.onRestore,
    openSettings: props.onOpenSettings,
    // The mode is switched first, so the plan's run is already an agent-mode run.
    runPlan: useCallback(
      (item: PlanItem) => {
        if (!sessionId) return;
        report(
          api.setMode(sessionId, "agent").then(() => {
            showMode("agent");
            return api.send(sessionId, item.prompt);
          }),
        );
      },
      [sessionId, report, showMode],
    ),
  };

  // Follow the stream while the reader is at the bottom; leave them be once they scroll up.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  });
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = () => {
      pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => element.removeEventListener("scroll", onScroll);
  }, []);

  if (!view) return <div className="chat-empty">Open a session or start a new one.</div>;
  const busy = view.status.state !== "idle";
  return (
    <div className="chat" data-testid="chat" data-session={view.sessionId}>
      <AgentStatusBar
        status={view.status}
        connection={connection}
        failure={failure}
        waitingForUser={view.approvals.length > 0 || view.questions.length > 0}
      />
      <div className="chat-scroll" ref={scroller}>
        <div className="chat-items" data-testid="chat-items">
          {view.items.map((item) => (
            <ChatItemView key={item.key} item={item} view={view} idle={!busy} handlers={handlers} />
          ))}
        </div>
        {view.questions.map((pending) => (
          <QuestionCard
            key={pending.questionId}
            pending={pending}
            onAnswer={(answers) => report(api.answer(view.sessionId, pending.questionId, answers))}
          />
        ))}
      </div>
      <TodoPanel todos={view.todos} />
      <ApprovalBar
        approvals={view.approvals}
        approvalMode={props.approvalMode}
        onAcceptAll={() => {
          for (const approval of view.approvals) report(api.approve(view.sessionId, approval.approvalId));
        }}
        onRejectAll={() => {
          for (const approval of view.approvals) report(api.reject(view.sessionId, approval.approvalId));
        }}
        onApprovalMode={props.onApprovalMode}
      />
      <Composer
        projectRoot={props.projectRoot}
        busy={busy}
        queued={view.queued}
        insertion={props.insertion}
        onSend={(text) => report(api.send(view.sessionId, text))}
        onStop={() => report(api.cancel(view.sessionId))}
        onCycleMode={props.onCycleMode}
      />
    </div>
  );
}
