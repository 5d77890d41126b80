import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { forwardRef, useCallback, type ComponentPropsWithoutRef, type ElementRef } from 'react';
import { cn } from '../../lib/utils';
import { dismissToast, TOAST_DURATION_MS, useToasts } from './use-toast';

export const ToastAction = forwardRef<ElementRef<typeof ToastPrimitive.Action>, ComponentPropsWithoutRef<typeof ToastPrimitive.Action>>(
  function ToastAction({ className, ...props }, ref) {
    return (
      <ToastPrimitive.Action
        ref={ref}
        className={cn(
          'inline-flex h-11 shrink-0 items-center justify-center rounded-full border border-current/30 px-4 text-sm font-semibold',
          'hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          className,
        )}
        {...props}
      />
    );
  },
);

/**
 * A ref for the toast area: while it shows a toast, its height is written on <html> as
 * `--toast-space` (0 px when empty), for the places on a phone that make room for it where it
 * sits (below the top bars) instead of being covered by it (toast-space.tsx).
 */
function useToastArea(): (area: HTMLElement | null) => (() => void) | undefined {
  return useCallback((area: HTMLElement | null) => {
    if (!area) return undefined;
    const style = document.documentElement.style;
    const write = () =>
      style.setProperty('--toast-space', `${area.childElementCount > 0 ? Math.ceil(area.getBoundingClientRect().height) : 0}px`);
    const sizes = new ResizeObserver(write);
    sizes.observe(area, { box: 'border-box' });
    // A toast replacing another may leave the height as it was: its arrival is a change too.
    const children = new MutationObserver(write);
    children.observe(area, { childList: true });
    write();
    return () => {
      sizes.disconnect();
      children.disconnect();
      style.setProperty('--toast-space', '0px');
    };
  }, []);
}

/** Renders the toast queue (mount once, inside the app's providers). */
export function Toaster() {
  const toasts = useToasts();
  const areaRef = useToastArea();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right">
      {toasts.map(({ id, title, description, action, variant = 'default', open, duration }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={duration}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          data-testid="toast"
          data-toast-id={id}
          data-variant={variant}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start gap-3 rounded-2xl border p-4 pr-12 shadow-lg',
            // Slides in from the edge it sits at: down from the top on phones, up from the bottom wider.
            '[--toast-enter-y:-16px] sm:[--toast-enter-y:16px]',
            'motion-safe:data-[state=open]:animate-toast-in motion-safe:data-[state=closed]:animate-toast-out',
            'data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0',
            variant === 'destructive'
              ? 'border-destructive bg-destructive text-destructive-foreground'
              : 'border-border bg-card text-foreground',
          )}
        >
          <div className="grid min-w-0 flex-1 gap-1">
            {title && (
              <ToastPrimitive.Title data-testid="toast-title" className="text-sm font-semibold">
                {title}
              </ToastPrimitive.Title>
            )}
            {description && (
              <ToastPrimitive.Description className="text-sm break-words opacity-90">{description}</ToastPrimitive.Description>
            )}
          </div>
          {action}
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-1 right-1 inline-flex size-11 items-center justify-center rounded-full opacity-80 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-ring"
          >
            <X className="size-4" aria-hidden />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* Phones: full width at the top, below the bars there (the site header, an open cart
          drawer's header, a dialog at the top; lib/screen-edges.ts), where the page and the
          drawer make room for it (toast-space.tsx); the drawer's total and pay button, at its
          bottom, are never covered. Wider screens: bottom left, above the install bar, and never
          wider than what the right-hand drawer (24rem from 640 px up) leaves. */}
      <ToastPrimitive.Viewport
        ref={areaRef}
        data-testid="toast-viewport"
        className={cn(
          'fixed top-[min(max(var(--edge-top,0px),env(safe-area-inset-top)),calc(100dvh-8rem))] left-0 z-[100] flex w-full flex-col gap-2 px-4 py-2 outline-none',
          'sm:top-auto sm:bottom-[max(var(--edge-bottom,0px),env(safe-area-inset-bottom))] sm:max-w-[min(24rem,calc(100vw-24rem))] sm:p-4',
        )}
      />
    </ToastPrimitive.Provider>
  );
}
