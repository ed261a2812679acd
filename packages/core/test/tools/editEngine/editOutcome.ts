import { expect } from "vitest";
import { applyEdit } from "../../../src/tools/editEngine/applyEdit.js";
import type { EditOutcome, EditRequest } from "../../../src/tools/editEngine/editTypes.js";

export type EditSuccess = Extract<EditOutcome, { ok: true }>;

export function succeeded(content: string, edit: EditRequest): EditSuccess {
  const outcome = applyEdit(content, edit);
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome;
}

export function failed(content: string, edit: EditRequest) {
  const outcome = applyEdit(content, edit);
  if (outcome.ok) throw new Error(`expected an error, got (${outcome.strategy}):\n${outcome.content}`);
  return outcome.error;
}

/** The result text and the strategy that produced it, for one exact comparison. */
export function expectEdit(
  content: string,
  edit: EditRequest,
  expected: { content: string; strategy: string },
) {
  const outcome = succeeded(content, edit);
  expect({ content: outcome.content, strategy: outcome.strategy }).toEqual(expected);
}
