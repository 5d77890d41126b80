import { useEffect, useState, type RefObject } from 'react';

/**
 * True from the moment the element comes within `margin` of the viewport (an IntersectionObserver
 * rootMargin, e.g. one screen ahead), and from then on: for sections below the fold that load
 * their code as the shopper scrolls towards them. Nothing is watched until `enabled` (e.g. while the
 * content above is still a placeholder of another height). True at once where IntersectionObserver is missing.
 */
export function useNearViewport(ref: RefObject<Element | null>, enabled: boolean, margin = '100% 0px'): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !enabled || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, enabled, margin, near]);
  return near;
}
