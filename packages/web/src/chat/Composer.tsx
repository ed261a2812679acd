import type { MentionCompletions } from "@lathe/protocol";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { api } from "../api/httpApi.js";

type Completion = MentionCompletions["items"][number];

/** The `@…` being typed just before the caret, if any. */
export function mentionAtCaret(text: string, caret: number): { start: number; query: string } | undefined {
  const match = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

export interface ComposerProps {
  projectRoot: string;
  busy: boolean;
  queued: string[];
  /** Text another part of the page wants inserted (a file clicked in the tree), with a counter so repeats apply. */
  insertion?: { text: string; nonce: number };
  onSend(text: string): void;
  onStop(): void;
  onCycleMode(): void;
}

/**
 * The message box. Enter sends (queued behind a running task), Shift+Enter breaks the line,
 * Shift+Tab switches mode, Esc stops the run; `@` offers files, folders and mention kinds.
 */
export function Composer({
  projectRoot,
  busy,
  queued,
  insertion,
  onSend,
  onStop,
  onCycleMode,
}: ComposerProps) {
  const [text, setText] = useState("");
  const [items, setItems] = useState<Completion[]>([]);
  const [selected, setSelected] = useState(0);
  const [mention, setMention] = useState<{ start: number; query: string } | undefined>();
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!insertion) return;
    setText((current) => `${current}${current === "" || current.endsWith(" ") ? "" : " "}${insertion.text} `);
    box.current?.focus();
  }, [insertion]);

  useEffect(() => {
    if (!mention) {
      setItems([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api
        .mentions(projectRoot, mention.query)
        .then((reply) => {
          if (!live) return;
          setItems(reply.items);
          setSelected(0);
        })
        .catch(() => {
          if (live) setItems([]);
        });
    }, 60);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [mention, projectRoot]);

  const track = (value: string, caret: number) => {
    setText(value);
    setMention(mentionAtCaret(value, caret));
  };

  const accept = (item: Completion) => {
    if (!mention) return;
    const caret = mention.start + mention.query.length + 1;
    const next = `${text.slice(0, mention.start)}${item.insert} ${text.slice(caret)}`;
    setText(next);
    setMention(undefined);
    setItems([]);
    requestAnimationFrame(() => {
      const position = mention.start + item.insert.length + 1;
      box.current?.setSelectionRange(position, position);
      box.current?.focus();
    });
  };

  const send = () => {
    if (text.trim() === "") return;
    onSend(text);
    setText("");
    setMention(undefined);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (items.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setSelected((current) => (current + step + items.length) % items.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        accept(items[selected]!);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setMention(undefined);
        return;
      }
    }
    if (event.key === "Tab" && event.shiftKey) {
      event.preventDefault();
      onCycleMode();
      return;
    }
    if (event.key === "Escape" && busy) {
      event.preventDefault();
      onStop();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <div className="composer" data-testid="composer">
      {queued.length > 0 && (
        <ul className="queued" data-testid="queued">
          {queued.map((message, index) => (
            // Queued texts may repeat; their order is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index}>Queued: {message}</li>
          ))}
        </ul>
      )}
      {items.length > 0 && (
        <div className="mention-menu" data-testid="mention-menu" role="listbox">
          {items.map((item, index) => (
            <div
              key={`${item.kind}:${item.insert}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === selected}
              className={index === selected ? "selected" : ""}
              data-testid="mention-item"
              onMouseDown={(event) => {
                event.preventDefault();
                accept(item);
              }}
            >
              <span className="mention-kind">{item.kind}</span> {item.label}
              {item.detail && <span className="mention-detail">{item.detail}</span>}
            </div>
          ))}
        </div>
      )}
      <div className="composer-row">
        <textarea
          ref={box}
          data-testid="message-input"
          value={text}
          rows={3}
          placeholder={
            busy ? "Queue a message for when this run ends…" : "Ask Lathe to do something (@ to mention)"
          }
          onChange={(event) => track(event.target.value, event.target.selectionStart)}
          onKeyDown={onKeyDown}
          onClick={(event) => setMention(mentionAtCaret(text, event.currentTarget.selectionStart))}
        />
        <div className="composer-buttons">
          {busy && (
            <button type="button" className="stop" data-testid="stop" onClick={onStop}>
              Stop
            </button>
          )}
          <button
            type="button"
            className="primary"
            data-testid="send"
            onClick={send}
            disabled={text.trim() === ""}
          >
            {busy ? "Queue" : "Send"}
          </button>
        </div>
      </div>
    </div>
  );
}
