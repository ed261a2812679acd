/** Test files by the usual conventions: `*.test.ts`, `*_test.go`, `test_*.py`, `tests/`, `__tests__/`, `spec/`. */
const testPath = /(^|\/)(__tests__|tests?|spec)\/|[._-](test|spec)\.[^/]+$|(^|\/)test_[^/]+\.py$|_test\.go$/;

/** Whether a project-relative path (forward slashes) is a test. */
export function isTestPath(relative: string): boolean {
  return testPath.test(relative);
}
