// biome-ignore-all lint/suspicious/noArrayIndexKey: files, hunks and lines are identified by their position in the diff

import { memo, useCallback, useMemo, useRef, useState } from "react";
import {
  type DiffFile,
  type DiffHunk,
  type DiffLine,
  type ParsedDiffFile,
  parseDiffFile,
  totalChanges,
} from "./diffModel.js";

export type { DiffFile } from "./diffModel.js";

/** Files past this many start collapsed, so a large diff renders its headers first. */
const openFileLimit = 20;
/** Lines a file shows before a "show more" button; a generated file can hold tens of thousands. */
const initialLineLimit = 1500;

function sameInput(a: DiffFile | undefined, b: DiffFile): boolean {
  return (
    a !== undefined &&
    a.path === b.path &&
    a.oldText === b.oldText &&
    a.newText === b.newText &&
    a.patch === b.patch
  );
}

interface ParseCache {
  inputs: readonly DiffFile[];
  perInput: ParsedDiffFile[][];
  files: ParsedDiffFile[];
}

/**
 * The parsed files of `inputs`. Callers often build a new `DiffFile[]` on every render, so parses
 * are reused per input whose contents are unchanged, and the result keeps its identity when none changed.
 */
function useParsedFiles(inputs: readonly DiffFile[]): ParsedDiffFile[] {
  const cache = useRef<ParseCache | undefined>(undefined);
  const previous = cache.current;
  if (previous !== undefined && previous.inputs === inputs) return previous.files;
  const perInput = inputs.map((input, index) =>
    previous !== undefined && sameInput(previous.inputs[index], input)
      ? previous.perInput[index]!
      : parseDiffFile(input),
  );
  const unchanged =
    previous !== undefined &&
    perInput.length === previous.perInput.length &&
    perInput.every((parsed, index) => parsed === previous.perInput[index]);
  const files = unchanged ? previous.files : perInput.flat();
  cache.current = { inputs, perInput, files };
  return files;
}

const signs: Record<DiffLine["kind"], string> = { add: "+", del: "-", context: " ", note: "\\" };
const testIds: Partial<Record<DiffLine["kind"], string>> = { add: "diff-line-add", del: "diff-line-del" };

function DiffRow({ line }: { line: DiffLine }) {
  return (
    <tr className={`diff-line diff-line-${line.kind}`} data-testid={testIds[line.kind]}>
      <td className="diff-number">{line.oldNumber}</td>
      <td className="diff-number">{line.newNumber}</td>
      <td className="diff-code">
        <span className="diff-sign">{signs[line.kind]}</span>
        {line.text}
      </td>
    </tr>
  );
}

function HunkRows({ hunk, limit }: { hunk: DiffHunk; limit: number }) {
  return (
    <>
      <tr>
        <td className="diff-hunk-text" colSpan={3}>
          {hunk.header}
        </td>
      </tr>
      {hunk.lines.slice(0, limit).map((line, index) => (
        <DiffRow key={index} line={line} />
      ))}
    </>
  );
}

function FileBody({ file }: { file: ParsedDiffFile }) {
  const [lineLimit, setLineLimit] = useState(initialLineLimit);
  if (file.unparsed !== undefined) {
    return (
      <div className="diff-file-body">
        <div className="diff-file-note">Could not parse this patch ({file.problem}); showing it as text.</div>
        <pre className="diff-unparsed">{file.unparsed}</pre>
      </div>
    );
  }
  if (file.hunks.length === 0) {
    const note = file.binary
      ? "Binary file changed."
      : file.oldPath
        ? `${file.change === "copied" ? "Copied" : "Renamed"} without changes.`
        : "No changes.";
    return (
      <div className="diff-file-body">
        <div className="diff-file-note">{note}</div>
      </div>
    );
  }
  let budget = lineLimit;
  let total = 0;
  const hunks = file.hunks.map((hunk, index) => {
    total += hunk.lines.length;
    const shown = Math.max(budget, 0);
    budget -= hunk.lines.length;
    return shown === 0 ? null : <HunkRows key={index} hunk={hunk} limit={shown} />;
  });
  return (
    <div className="diff-file-body">
      <table className="diff-table">
        <tbody>{hunks}</tbody>
      </table>
      {total > lineLimit && (
        <button type="button" className="diff-more" onClick={() => setLineLimit(total)}>
          Show {total - lineLimit} more lines
        </button>
      )}
    </div>
  );
}

const changeLabels: Record<ParsedDiffFile["change"], string> = {
  added: "new",
  deleted: "deleted",
  modified: "",
  renamed: "renamed",
  copied: "copied",
};

interface FileSectionProps {
  file: ParsedDiffFile;
  index: number;
  open: boolean;
  onToggle(index: number): void;
}

const FileSection = memo(function FileSection({ file, index, open, onToggle }: FileSectionProps) {
  const label = changeLabels[file.change];
  return (
    <section className="diff-file" data-testid="diff-file" data-path={file.path}>
      <button type="button" className="diff-file-header" aria-expanded={open} onClick={() => onToggle(index)}>
        <span className="diff-file-chevron" aria-hidden="true" />
        <span className="diff-file-path">{file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</span>
        {label && <span className={`diff-file-change diff-file-${file.change}`}>{label}</span>}
        <span className="diff-count-added">+{file.added}</span>
        <span className="diff-count-removed">−{file.removed}</span>
      </button>
      {open && <FileBody file={file} />}
    </section>
  );
});

export interface DiffViewProps {
  files: readonly DiffFile[];
}

/**
 * Unified diffs of one or more files, with line numbers. Several files get a summary line; past
 * the first twenty they start collapsed, and off-screen bodies skip layout (`content-visibility`).
 */
export function DiffView({ files }: DiffViewProps) {
  const parsed = useParsedFiles(files);
  // Files the reader opened or closed, by position; the rest follow the default.
  const [toggled, setToggled] = useState<ReadonlyMap<number, boolean>>(new Map());
  const isOpen = (index: number) => toggled.get(index) ?? index < openFileLimit;
  const onToggle = useCallback((index: number) => {
    setToggled((current) => new Map(current).set(index, !(current.get(index) ?? index < openFileLimit)));
  }, []);
  const setAll = (open: boolean) => setToggled(new Map(parsed.map((_, index) => [index, open])));
  const totals = useMemo(() => totalChanges(parsed), [parsed]);
  const anyClosed = parsed.some((_, index) => !isOpen(index));
  return (
    <div className="diff-view" data-testid="diff-view">
      {parsed.length > 1 && (
        <div className="diff-summary">
          <span>{totals.files} files changed</span>
          <span className="diff-count-added">+{totals.added}</span>
          <span className="diff-count-removed">−{totals.removed}</span>
          <button type="button" className="diff-expand-all" onClick={() => setAll(anyClosed)}>
            {anyClosed ? "Expand all" : "Collapse all"}
          </button>
        </div>
      )}
      {parsed.map((file, index) => (
        <FileSection key={index} file={file} index={index} open={isOpen(index)} onToggle={onToggle} />
      ))}
    </div>
  );
}
