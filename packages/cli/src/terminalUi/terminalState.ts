import type { ApprovalAnswer, ApprovalRequest } from "@lathe/core";
import type { FileDiff } from "./diffLines.js";
import { emptyTranscript, type Transcript, type TranscriptItem } from "./transcriptModel.js";

/** A question that takes the keyboard until it is answered. */
export type Panel =
  | {
      kind: "approval";
      request: ApprovalRequest;
      /** The change the call would make, in colour; empty when it edits no file. */
      diff: FileDiff[];
      /** The command or arguments shown with the question when there is no change to show. */
      detail: string;
      answer(answer: ApprovalAnswer): void;
    }
  | { kind: "question"; question: string; options: readonly string[]; answer(text: string): void }
  | { kind: "trust"; text: string; answer(trusted: boolean): void };

export interface StatusFacts {
  model: string;
  mode: string;
  approvalMode: string;
  contextWindow: number;
  /** Whether commands run in the sandbox. */
  sandbox: boolean;
}

/** Everything the terminal UI draws, in one value that changes as a whole. */
export interface TerminalView {
  transcript: Transcript;
  /** The open question, if any: it takes the keyboard. */
  panel?: Panel;
  /** A one-line hint under the input ("Press Ctrl+C again to exit"). */
  hint?: string;
  status?: StatusFacts;
  /**
   * Text for the input (a message put back by `/undo`): the input takes it, the cursor at its end,
   * and clears this field, so the same text can be put back again later.
   */
  draft?: string;
}

/** Between two drawings of the streamed events: Ink draws at most every 33 ms (30 fps). */
const frameMs = 16;
/** Items of a resumed conversation drawn at a time: the prompt is up after the first of them. */
const historyItemsAtOnce = 50;

/**
 * The terminal UI's state outside React, so the engine's callbacks (approvals, questions, trust)
 * can open panels before or while the UI is drawn. React reads it with `useSyncExternalStore`.
 */
export class TerminalState {
  private view: TerminalView = { transcript: emptyTranscript() };
  private readonly listeners = new Set<() => void>();
  /** Changes waiting for the next frame (`updateSoon`), oldest first. */
  private pending: ((view: TerminalView) => TerminalView)[] = [];
  private frame?: NodeJS.Timeout;
  /** Items of a resumed conversation not drawn yet, oldest first. */
  private history: TranscriptItem[] = [];

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly current = (): TerminalView => this.view;

  update(change: (view: TerminalView) => TerminalView): void {
    this.pending.push(change);
    this.applyPending();
  }

  /**
   * A change made with the next frame, together with the others made meanwhile: a model streams
   * hundreds of events a second, and drawing after each would keep the terminal busy with frames no
   * one sees. `update` applies the waiting ones first, so changes keep their order.
   */
  updateSoon(change: (view: TerminalView) => TerminalView): void {
    this.pending.push(change);
    this.frame ??= setTimeout(() => this.applyPending(), frameMs);
  }

  /**
   * A resumed conversation, drawn a few items at a time: drawing thousands at once held the prompt
   * back for seconds. A change to the transcript meanwhile draws the rest first, so nothing comes
   * between them.
   */
  showHistory(items: readonly TranscriptItem[]): void {
    this.history.push(...items);
    this.drawHistory();
  }

  private drawHistory(): void {
    if (this.history.length === 0) return;
    this.view = withItems(this.view, this.history.splice(0, historyItemsAtOnce));
    for (const listener of this.listeners) listener();
    if (this.history.length > 0) setImmediate(() => this.drawHistory());
  }

  private applyPending(): void {
    clearTimeout(this.frame);
    this.frame = undefined;
    const changes = this.pending;
    this.pending = [];
    for (const change of changes) {
      const changed = change(this.view);
      if (changed.transcript === this.view.transcript || this.history.length === 0) this.view = changed;
      else this.view = change(withItems(this.view, this.history.splice(0)));
    }
    for (const listener of this.listeners) listener();
  }

  /** Opens a panel; it closes when answered, and `withdraw` closes it unanswered (a cancelled run). */
  openPanel(panel: Panel): { withdraw(): void } {
    this.update((view) => ({ ...view, panel }));
    return {
      withdraw: () => this.update((view) => (view.panel === panel ? { ...view, panel: undefined } : view)),
    };
  }

  closePanel(): void {
    this.update((view) => ({ ...view, panel: undefined }));
  }
}

function withItems(view: TerminalView, items: readonly TranscriptItem[]): TerminalView {
  return { ...view, transcript: { ...view.transcript, items: [...view.transcript.items, ...items] } };
}
