import path from "node:path";

export type ImageMediaType = "image/png" | "image/jpeg" | "image/webp";

/** Extensions a saved image may have, and the one used when the bytes call for a change. */
const extensionsByType: Record<ImageMediaType, readonly string[]> = {
  "image/png": [".png"],
  "image/jpeg": [".jpg", ".jpeg"],
  "image/webp": [".webp"],
};

/** How the format is named to the model. */
export const imageFormatNames: Record<ImageMediaType, string> = {
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/webp": "WebP",
};

export const imageExtensions: readonly string[] = Object.values(extensionsByType).flat();

/** The format by its magic bytes: providers do not always return what the extension suggests. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString("latin1");
  if (bytes.length >= 8 && ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

/** `filePath` when its extension fits the format, else the same name with the format's extension. */
export function withMatchingExtension(filePath: string, mediaType: ImageMediaType): string {
  const allowed = extensionsByType[mediaType];
  const extension = path.extname(filePath);
  if (allowed.includes(extension.toLowerCase())) return filePath;
  return `${filePath.slice(0, filePath.length - extension.length)}${allowed[0]}`;
}
