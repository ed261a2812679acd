import { Box, Text, useInput, usePaste } from "ink";
import { useCallback, useEffect, useRef, useState } from "react";
import { searchPrompt } from "./historySearch.js";
import { type EditorLine, lineOf } from "./lineEditor.js";
import { completedMention, mentionAtCursor, mentionHint } from "./mentionCompletion.js";
import {
  draftOf,
  emptyDraft,
  type PromptDraft,
  type PromptEffect,
  pasted,
  pressed,
  withLine,
} from "./promptDraft.js";
import { promptKey } from "./promptKeys.js";
import type { TerminalControls } from "./terminalControls.js";
import type { TerminalState, TerminalView } from "./terminalState.js";

/**
 * The input: a multi-line editor with a cursor, the project's history on Up, Down and Ctrl+R,
 * pastes taken whole (bracketed paste, on while the input has the keyboard) and `@` completion.
 * While a panel has the keyboard it is hidden, and what was typed waits in it.
 */
export function PromptInput({
  controls,
  view,
  state,
}: {
  controls: TerminalControls;
  view: TerminalView;
  state: TerminalState;
}) {
  const active = view.panel === undefined;
  const [draft, setDraft] = useState<PromptDraft>(emptyDraft);
  // Several keys can arrive in one read, before React draws again: each must see the last.
  const latest = useRef(draft);
  const change = useCallback((next: PromptDraft) => {
    latest.current = next;
    setDraft(next);
  }, []);

  const completeAtCursor = async () => {
    const { line } = latest.current;
    const mention = mentionAtCursor(line);
    if (mention === undefined) {
      const completed = controls.complete(line.text);
      if (completed !== line.text) change(withLine(latest.current, lineOf(completed)));
      return;
    }
    // A folder that cannot be read offers nothing; it must not end the program.
    const candidates = await controls.completeMention(mention.query).catch(() => []);
    // Typed on meanwhile: the completion belongs to a line that is gone.
    if (latest.current.line !== line) return;
    change(withLine(latest.current, completedMention(line, mention, candidates)));
  };

  const perform = (effect: PromptEffect) => {
    switch (effect.kind) {
      case "submit":
        return controls.submit(effect.text);
      case "stop":
        return controls.stop();
      case "interrupt":
        return controls.interrupt();
      case "exit":
        return controls.exit();
      case "cycleMode":
        return controls.cycleMode();
      case "cycleApprovalMode":
        return controls.cycleApprovalMode();
      case "complete":
        return void completeAtCursor();
    }
  };

  useInput(
    (input, key) => {
      const pressedKey = promptKey(input, key);
      if (pressedKey === undefined) return;
      const context = { history: controls.history(), busy: controls.busy() };
      const result = pressed(latest.current, pressedKey, context);
      change(result.draft);
      if (result.effect) perform(result.effect);
    },
    { isActive: active },
  );
  usePaste((text) => change(pasted(latest.current, text, controls.history())), { isActive: active });

  // A message put back (an undone one) replaces the draft; taken once, so the same text can come again.
  useEffect(() => {
    if (view.draft === undefined) return;
    change(draftOf(view.draft));
    state.update((current) => ({ ...current, draft: undefined }));
  }, [view.draft, state, change]);

  const candidates = useMentionCandidates(controls, draft.search ? undefined : draft.line);

  if (!active) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {draft.search ? (
        <SearchRows text={searchPrompt(draft.search.state, controls.history())} />
      ) : (
        <EditorRows line={draft.line} />
      )}
      {view.hint ? <Text dimColor>{view.hint}</Text> : null}
      {candidates ? <Text dimColor>{candidates}</Text> : null}
    </Box>
  );
}

/** The hint of the `@` mention being typed, asked anew as the line changes; stale answers are dropped. */
function useMentionCandidates(controls: TerminalControls, line: EditorLine | undefined): string | undefined {
  const [hint, setHint] = useState<string | undefined>();
  useEffect(() => {
    const mention = line === undefined ? undefined : mentionAtCursor(line);
    if (mention === undefined) {
      setHint(undefined);
      return;
    }
    let current = true;
    controls.completeMention(mention.query).then(
      (found) => {
        if (current) setHint(mentionHint(found));
      },
      () => {
        if (current) setHint(undefined);
      },
    );
    return () => {
      current = false;
    };
  }, [controls, line]);
  return hint;
}

/**
 * The text's rows, each with where it starts in the text, which is also its key. A tab is drawn as
 * one space, so each character of the text keeps one cell and the cursor stays where it is.
 */
function rowsOf(text: string): { start: number; text: string }[] {
  let start = 0;
  return text.split("\n").map((row) => {
    const placed = { start, text: row.replaceAll("\t", " ") };
    start += row.length + 1;
    return placed;
  });
}

/** The text, row by row after the prompt mark, the character under the cursor in inverse. */
function EditorRows({ line }: { line: EditorLine }) {
  return (
    <Box flexDirection="column">
      {rowsOf(line.text).map((row) => {
        const mark = row.start === 0 ? <Text color="cyan">{"› "}</Text> : <Text>{"  "}</Text>;
        const column = line.cursor - row.start;
        if (column < 0 || column > row.text.length) {
          return (
            <Text key={row.start}>
              {mark}
              {row.text}
            </Text>
          );
        }
        const under = String.fromCodePoint(row.text.codePointAt(column) ?? 0x20);
        return (
          <Text key={row.start}>
            {mark}
            {row.text.slice(0, column)}
            <Text inverse>{under}</Text>
            {row.text.slice(column + under.length)}
          </Text>
        );
      })}
    </Box>
  );
}

/** Ctrl+R's line in bash's words, the cursor after the match. */
function SearchRows({ text }: { text: string }) {
  const rows = rowsOf(text);
  const last = rows.at(-1)?.start;
  return (
    <Box flexDirection="column">
      {rows.map((row) => (
        <Text key={row.start}>
          {row.text}
          {row.start === last ? <Text inverse> </Text> : null}
        </Text>
      ))}
    </Box>
  );
}
