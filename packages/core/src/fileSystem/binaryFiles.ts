import path from "node:path";

const binaryExtensionGroups = {
  images: "png jpg jpeg gif bmp ico webp tif tiff avif heic psd",
  media: "mp3 wav ogg flac m4a aac mp4 mov avi mkv webm",
  archives: "zip gz tgz bz2 xz zst 7z rar tar jar war",
  documents: "pdf doc docx xls xlsx ppt pptx odt ods",
  compiled: "exe dll so dylib o a lib obj class pyc pyo wasm node",
  fonts: "woff woff2 ttf otf eot",
  data: "sqlite db bin dat pack idx",
};

/** Extensions whose files are binary whatever their first bytes look like. */
const binaryExtensions: ReadonlySet<string> = new Set(
  Object.values(binaryExtensionGroups).flatMap((group) =>
    group.split(" ").map((extension) => `.${extension}`),
  ),
);

/** The extension when it marks a binary file, else undefined. */
export function binaryExtensionOf(filePath: string): string | undefined {
  const extension = path.extname(filePath).toLowerCase();
  return binaryExtensions.has(extension) ? extension : undefined;
}

/** Bytes sniffed for NUL, as git and most editors do. */
export const binarySniffBytes = 8192;

/** Text files practically never contain NUL; binary files almost always do early on. */
export function containsNulByte(bytes: Uint8Array): boolean {
  return bytes.indexOf(0) !== -1;
}
