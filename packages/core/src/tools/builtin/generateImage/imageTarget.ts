import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { imageExtensions } from "./imageFormat.js";

export type ImageTarget = { ok: true; path: string; relative: string } | { ok: false; error: LatheErrorInfo };

/**
 * Control characters, and the bidirectional overrides that make `logo\u202Egnp.js` display as
 * `logo.js.png`: a file name the user cannot read correctly is refused, not written.
 */
const unreadableCharacters = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const maxNameBytes = 255;

/**
 * Where a generated image may be saved (SPEC §12: image file names are path-checked): the name is
 * readable and ends in an image extension, the path stays inside the project by the path guard,
 * and an existing file is only replaced when the caller said `overwrite`.
 */
export async function imageTarget(
  projectRoot: string,
  requested: string,
  overwrite: boolean,
): Promise<ImageTarget> {
  const name = path.basename(requested);
  if (unreadableCharacters.test(requested)) {
    return invalid(
      `The path ${JSON.stringify(requested)} contains control or direction-changing characters.`,
    );
  }
  const extension = path.extname(name).toLowerCase();
  if (requested.endsWith("/") || requested.endsWith(path.sep) || name === extension) {
    return invalid(`${requested} does not name a file; give a path such as assets/picture.png.`);
  }
  if (!imageExtensions.includes(extension)) {
    return invalid(`${requested} must end in ${imageExtensions.join(", ")}.`);
  }
  if (Buffer.byteLength(name) > maxNameBytes)
    return invalid(`The file name is longer than ${maxNameBytes} bytes.`);

  const guarded = await resolveProjectPath(projectRoot, requested);
  if (!guarded.ok) return guarded;
  const existing = await statIfExists(guarded.path);
  if (existing?.isDirectory()) return invalid(`${guarded.relative} is a directory; give a file path.`);
  if (existing !== undefined && !overwrite) {
    return invalid(
      `${guarded.relative} already exists; choose another path, or pass overwrite: true to replace it.`,
    );
  }
  return guarded;
}

function invalid(message: string): ImageTarget {
  return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
}
