import type { EventDraft, LatheErrorInfo } from "@lathe/protocol";

/**
 * What some tools need from capabilities that sit above the tool system (context, code
 * intelligence, the agent). The interfaces live here so tools never import those capabilities;
 * the agent hands the implementations in through the tool context. The ports of capabilities
 * below the tools live with them: the todo list in `planning`, the memory book in `store`.
 */

/** Rules the model may ask for by name with `fetch_rules` (SPEC §6: agent-requested rules). */
export interface RuleCatalog {
  /** The agent-requested rules: a name and the description the model chooses by. */
  requestable(): { name: string; description: string }[];
  /**
   * The named rules' text. Fetched rules stay attached for the rest of the session; unknown
   * names come back in `missing`.
   */
  fetch(names: readonly string[]): { rules: { name: string; content: string }[]; missing: string[] };
}

export interface CodeSearchHit {
  /** Relative to the project root, with forward slashes. */
  path: string;
  startLine: number;
  endLine: number;
  /** The symbol whose body the chunk is, when it is one. */
  symbol?: string;
  /** function, class, method, interface, type… as the grammar names it. */
  kind?: string;
  score: number;
  snippet: string;
}

/** The project's code index (SPEC §6), used by `codebase_search`. */
export interface CodeSearchIndex {
  search(
    query: string,
    options: { limit: number; paths?: readonly string[] },
    signal: AbortSignal,
  ): Promise<CodeSearchHit[]>;
}

/** Questions the model puts to the user (`ask_user`); the run waits for the answers. */
export interface UserQuestions {
  ask(
    questions: readonly { question: string; options?: readonly string[] }[],
    /** `questionId` is the one the `user_question` event announced: answers are matched to it. */
    context: { callId: string; questionId: string; signal: AbortSignal },
  ): Promise<{ ok: true; answers: string[] } | { ok: false; error: LatheErrorInfo }>;
}

/** Runs a sub-agent for the `task` tool (SPEC §4): its own messages, limited tools, bounded time. */
export interface SubagentLauncher {
  /** The agents the model may delegate to: built-ins and `.lathe/agents/*.md`. */
  agents(): { name: string; description: string; readonly: boolean }[];
  run(
    request: {
      agent: string;
      description: string;
      prompt: string;
      callId: string;
      /** Where the sub-agent's progress events go (the parent's stream). */
      emit?: (draft: EventDraft) => void;
    },
    signal: AbortSignal,
  ): Promise<
    | { ok: true; output: string; partial: boolean; iterations: number }
    | { ok: false; error: LatheErrorInfo; output?: string }
  >;
}
