import { type RefObject, useLayoutEffect, useRef } from "react";

/** Within this many pixels of the bottom the reader is following, so what is added keeps in view. */
const followSlack = 24;

/**
 * A box that grows at its end (a log, a terminal's output) stays scrolled to the end while the
 * reader is there; once they scroll up to read, it stays where they are.
 */
export function useFollowingScroll<T extends HTMLElement>(): {
  ref: RefObject<T | null>;
  onScroll: () => void;
} {
  const ref = useRef<T>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  });
  const onScroll = () => {
    const element = ref.current;
    if (element)
      following.current = element.scrollHeight - element.scrollTop - element.clientHeight <= followSlack;
  };
  return { ref, onScroll };
}
