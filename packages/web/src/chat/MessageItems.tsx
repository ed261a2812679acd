import { memo } from "react";
import { MarkdownView } from "../render/index.js";
import type { AssistantItem, NoticeItem, UserItem } from "../state/sessionView.js";

export const UserMessage = memo(function UserMessage({
  item,
  onRestore,
}: {
  item: UserItem;
  /** Absent while a run is in progress: restoring then would race the run. */
  onRestore?: (item: UserItem) => void;
}) {
  return (
    <div className="user-message" data-testid="user-message">
      <div className="user-text">{item.text}</div>
      {item.checkpointId && onRestore && (
        <button
          type="button"
          className="restore-button"
          data-testid="restore-checkpoint"
          title="Put the project and the conversation back to how they were before this message"
          onClick={() => onRestore(item)}
        >
          Restore checkpoint
        </button>
      )}
    </div>
  );
});

export const AssistantMessage = memo(function AssistantMessage({ item }: { item: AssistantItem }) {
  return (
    <div className="assistant-message" data-testid="assistant-message" data-streaming={item.streaming}>
      {item.reasoning !== "" && (
        <details className="reasoning">
          <summary>Thinking</summary>
          <div className="reasoning-text">{item.reasoning}</div>
        </details>
      )}
      {item.text !== "" && <MarkdownView text={item.text} streaming={item.streaming} />}
    </div>
  );
});

export const NoticeLine = memo(function NoticeLine({
  item,
  onOpenSettings,
}: {
  item: NoticeItem;
  onOpenSettings?: () => void;
}) {
  return (
    <div className={`notice notice-${item.level}`} data-testid="notice">
      {item.text}
      {item.fix === "settings" && onOpenSettings && (
        <button type="button" className="notice-fix" data-testid="open-settings" onClick={onOpenSettings}>
          Open Settings
        </button>
      )}
    </div>
  );
});
