import { useId, type ReactNode } from 'react';
import { cn } from '../../lib/utils';

/**
 * A short hint shown on hover and on keyboard focus or tap (the trigger is focusable, so a touch
 * shows it too), and read out with the trigger through aria-describedby.
 */
export function Tooltip({ content, children, className }: { content: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <span className={cn('group/tooltip relative inline-flex min-w-0', className)}>
      {/* Focus is how a keyboard or touch user shows the hint (content on hover or focus, WCAG 1.4.13);
          the trigger has no action of its own, so it is not a button. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <span tabIndex={0} aria-describedby={id} className="min-w-0 rounded-md focus-visible:outline-2 focus-visible:outline-ring">
        {children}
      </span>
      <span
        role="tooltip"
        id={id}
        className={cn(
          'pointer-events-none absolute bottom-full left-0 z-20 mb-1 hidden rounded-lg bg-foreground px-2 py-1 text-xs font-medium whitespace-nowrap text-background shadow',
          'group-hover/tooltip:block group-focus-within/tooltip:block',
        )}
      >
        {content}
      </span>
    </span>
  );
}
