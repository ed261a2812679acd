import path from "node:path";

/** Extensions of files that are never text worth searching; skipped without being read. */
const binaryExtensions: ReadonlySet<string> = new Set(
  (
    "png jpg jpeg gif bmp ico webp avif tiff psd svgz pdf zip gz tgz bz2 xz 7z rar tar jar war ear " +
    "class o a so dylib dll exe bin wasm node pyc pyo woff woff2 ttf otf eot mp3 mp4 m4a wav ogg " +
    "flac avi mov mkv webm sqlite db parquet pkl npy npz onnx pt safetensors"
  )
    .split(" ")
    .map((extension) => `.${extension}`),
);

/** Generated files that would flood the results with text nobody wrote. */
const generatedNames: ReadonlySet<string> = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "Cargo.lock",
  "go.sum",
  "poetry.lock",
  "uv.lock",
  "Pipfile.lock",
  "composer.lock",
  "Gemfile.lock",
]);

export function isSkippedByName(relative: string): boolean {
  const name = path.posix.basename(relative);
  if (generatedNames.has(name)) return true;
  if (/\.min\.(js|css)$|\.map$/.test(name)) return true;
  return binaryExtensions.has(path.posix.extname(name).toLowerCase());
}
