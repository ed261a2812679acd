import type * as acp from "@agentclientprotocol/sdk";

/** The text of a prompt: its text blocks, and embedded resources' text with their URI. */
export function promptText(blocks: acp.ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === "text") return block.text;
      if (block.type === "resource" && "text" in block.resource)
        return `${block.resource.uri}:\n${block.resource.text}`;
      if (block.type === "resource_link") return block.uri;
      return "";
    })
    .filter((text) => text !== "")
    .join("\n\n");
}
