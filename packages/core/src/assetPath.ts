/**
 * Files that ship beside the code — prompt texts, tool descriptions, the model catalog — by their
 * path under the package's source folder (`src/`, copied to `dist/` by the build). Resolved from
 * this module, which sits at the top of the package, so the same path works from `src/` in the
 * tests, from `dist/`, and from the single-file bundle the build writes into `dist/`.
 */
export function assetUrl(path: string): URL {
  return new URL(path, import.meta.url);
}
