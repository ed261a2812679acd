import type {
  BlobResourceContents,
  ContentBlock,
  TextResourceContents,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * MCP content as the text a model reads: text as it is, and for binary parts a note of what was
 * there (the bytes themselves would only be noise in a text result).
 */
export function contentText(blocks: readonly ContentBlock[]): string {
  return blocks.map(blockText).join("\n");
}

/** The contents of a resource (`resources/read`, or embedded in a result) as text. */
export function resourceContentsText(contents: TextResourceContents | BlobResourceContents): string {
  if ("text" in contents) return contents.text;
  return `[resource ${contents.uri}: ${binaryNote(contents.mimeType, contents.blob)}]`;
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image: ${binaryNote(block.mimeType, block.data)}]`;
    case "audio":
      return `[audio: ${binaryNote(block.mimeType, block.data)}]`;
    case "resource":
      return resourceContentsText(block.resource);
    case "resource_link":
      return `[resource link: ${block.uri}${block.name === "" ? "" : ` (${block.name})`}]`;
  }
}

function binaryNote(mediaType: string | undefined, base64: string): string {
  const bytes = Buffer.byteLength(base64, "base64");
  return `${mediaType ?? "application/octet-stream"}, ${bytes.toLocaleString("en-US")} bytes`;
}
