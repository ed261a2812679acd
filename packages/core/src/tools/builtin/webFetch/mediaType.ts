import { binarySniffBytes, containsNulByte } from "../../../fileSystem/binaryFiles.js";

/** How a response body is turned into text for the model; `binary` is refused. */
export type PageKind = "html" | "json" | "xml" | "text" | "binary";

export interface ContentType {
  /** Lower-case `type/subtype`, without parameters. */
  mediaType: string;
  charset?: string;
}

/** Application types that are text in practice although they do not say `text/`. */
const textualApplicationTypes: ReadonlySet<string> = new Set([
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/x-sh",
  "application/sql",
  "application/graphql",
]);

export function parseContentType(header: string | undefined): ContentType | undefined {
  if (header === undefined) return undefined;
  const [type, ...parameters] = header.split(";");
  const mediaType = type?.trim().toLowerCase();
  if (!mediaType) return undefined;
  for (const parameter of parameters) {
    const [name, value] = parameter.split("=");
    if (name?.trim().toLowerCase() === "charset" && value !== undefined) {
      return { mediaType, charset: value.trim().replace(/^"|"$/g, "") };
    }
  }
  return { mediaType };
}

/**
 * Decides by the declared type, and by the bytes when there is none. A body declared as text that
 * carries NUL bytes is binary whatever the server says.
 */
export function pageKindOf(contentType: ContentType | undefined, body: Uint8Array): PageKind {
  const sniff = body.subarray(0, binarySniffBytes);
  if (containsNulByte(sniff)) return "binary";
  if (contentType === undefined) return sniffKind(sniff);
  return declaredKind(contentType.mediaType);
}

function declaredKind(mediaType: string): PageKind {
  // Images first: SVG is XML, but it is a picture, not something to read.
  if (/^(image|audio|video|font)\//.test(mediaType)) return "binary";
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (mediaType === "application/json" || mediaType.endsWith("+json")) return "json";
  if (mediaType === "application/xml" || mediaType === "text/xml" || mediaType.endsWith("+xml")) return "xml";
  if (mediaType.startsWith("text/") || textualApplicationTypes.has(mediaType)) return "text";
  return "binary";
}

function sniffKind(sniff: Uint8Array): PageKind {
  const start = Buffer.from(sniff.subarray(0, 512)).toString("latin1").trimStart().toLowerCase();
  if (start.startsWith("<!doctype html") || start.startsWith("<html")) return "html";
  return "text";
}
