/** Link targets a rendered message may open: anything else (javascript:, data:, file:, relative) is not linked. */
const allowedScheme = /^(?:https?:\/\/|mailto:)/i;

/** `href` when it is safe to put in a link model output produced, otherwise undefined. */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  return allowedScheme.test(trimmed) ? trimmed : undefined;
}
