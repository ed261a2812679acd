export * from "./editorState.js";
export * from "./errors.js";
export * from "./events.js";
export * from "./ids.js";
export * from "./mentionKinds.js";
export * from "./messages.js";
export * from "./serverApi.js";
export * from "./spans.js";
