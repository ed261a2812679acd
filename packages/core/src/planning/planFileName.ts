/** Words of the task kept in a plan's file name, and the longest slug made of them. */
const slugWords = 6;
const maxSlugLength = 48;

/**
 * The slug of a plan's file name, from the task it answers: lower-case ASCII words joined by `-`,
 * accents dropped, so the name is easy to type in `lathe -p --plan`. A task with no such word
 * (Chinese, say) is simply "plan".
 */
export function planSlug(task: string): string {
  const words = task
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "")
    .slice(0, slugWords);
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > maxSlugLength) break;
    slug = next;
  }
  return slug === "" ? "plan" : slug;
}

/** `yyyy-mm-dd` of the user's own calendar day. */
export function planDate(now: Date): string {
  const two = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/** The file names tried in turn for a plan: `<date>-<slug>.md`, then `-2`, `-3`… so no plan overwrites another. */
export function* planFileNames(task: string, now: Date): Generator<string> {
  const base = `${planDate(now)}-${planSlug(task)}`;
  yield `${base}.md`;
  for (let suffix = 2; ; suffix++) yield `${base}-${suffix}.md`;
}
