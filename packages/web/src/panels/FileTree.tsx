import type { FileListing } from "@lathe/protocol";
import { useCallback, useState } from "react";
import { api } from "../api/httpApi.js";
import { PanelStatus } from "./PanelStatus.js";
import { useApiResource } from "./useApiResource.js";
import "./panels.css";

export interface FileTreeProps {
  projectRoot: string;
  refreshKey?: number;
  onMention?(path: string): void;
}

type FileEntry = FileListing["entries"][number];

function indentStyle(depth: number) {
  return { paddingLeft: `${0.5 + depth * 0.9}rem` };
}

export function FileTree(props: FileTreeProps) {
  return (
    <div className="lp-panel lp-file-tree" data-testid="file-tree">
      <DirectoryListing
        projectRoot={props.projectRoot}
        dir=""
        depth={0}
        refreshKey={props.refreshKey}
        onMention={props.onMention}
      />
    </div>
  );
}

interface ListingProps {
  projectRoot: string;
  dir: string;
  depth: number;
  refreshKey: number | undefined;
  onMention: ((path: string) => void) | undefined;
}

/** One folder's entries, fetched when it is first shown. */
function DirectoryListing(props: ListingProps) {
  const { projectRoot, dir } = props;
  const load = useCallback(() => api.files(projectRoot, dir), [projectRoot, dir]);
  const { resource } = useApiResource(load, props.refreshKey);
  const indent = indentStyle(props.depth);

  if (resource.status === "loading")
    return (
      <div style={indent}>
        <PanelStatus kind="loading">Loading…</PanelStatus>
      </div>
    );
  if (resource.status === "failed")
    return (
      <div style={indent}>
        <PanelStatus kind="error">{resource.error}</PanelStatus>
      </div>
    );
  if (resource.data.entries.length === 0)
    return (
      <div style={indent}>
        <PanelStatus kind="empty">{props.depth === 0 ? "No files" : "Empty folder"}</PanelStatus>
      </div>
    );
  return (
    <ul className="lp-tree">
      {resource.data.entries.map((entry) =>
        entry.kind === "dir" ? (
          <DirectoryNode
            key={entry.path}
            entry={entry}
            projectRoot={props.projectRoot}
            depth={props.depth}
            refreshKey={props.refreshKey}
            onMention={props.onMention}
          />
        ) : (
          <FileNode key={entry.path} entry={entry} depth={props.depth} onMention={props.onMention} />
        ),
      )}
    </ul>
  );
}

function DirectoryNode(props: Omit<ListingProps, "dir"> & { entry: FileEntry }) {
  const [expanded, setExpanded] = useState(false);
  // Once loaded, a folder's listing stays mounted while collapsed so reopening it costs no request.
  const [everExpanded, setEverExpanded] = useState(false);
  const toggle = () => {
    setExpanded(!expanded);
    setEverExpanded(true);
  };
  return (
    <li>
      <button
        type="button"
        className="lp-tree-row"
        aria-expanded={expanded}
        data-testid="file-node"
        data-path={props.entry.path}
        data-kind="dir"
        style={indentStyle(props.depth)}
        title={props.entry.path}
        onClick={toggle}
      >
        <span className="lp-tree-twisty" aria-hidden="true">
          {expanded ? "▾" : "▸"}
        </span>
        <span className="lp-tree-name">{props.entry.name}</span>
      </button>
      {everExpanded ? (
        <div hidden={!expanded}>
          <DirectoryListing
            projectRoot={props.projectRoot}
            dir={props.entry.path}
            depth={props.depth + 1}
            refreshKey={props.refreshKey}
            onMention={props.onMention}
          />
        </div>
      ) : null}
    </li>
  );
}

function FileNode(props: {
  entry: FileEntry;
  depth: number;
  onMention: ((path: string) => void) | undefined;
}) {
  const { entry, onMention } = props;
  return (
    <li>
      <button
        type="button"
        className="lp-tree-row"
        data-testid="file-node"
        data-path={entry.path}
        data-kind="file"
        style={indentStyle(props.depth)}
        title={onMention ? `Mention @${entry.path}` : entry.path}
        onClick={() => onMention?.(entry.path)}
      >
        <span className="lp-tree-twisty" aria-hidden="true" />
        <span className="lp-tree-name">{entry.name}</span>
      </button>
    </li>
  );
}
