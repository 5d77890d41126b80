import * as DialogPrimitive from '@radix-ui/react-dialog';
import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import { forwardRef, useCallback, type ComponentPropsWithoutRef, type ElementRef, type ForwardedRef } from 'react';
import { useScreenEdge } from '../../lib/screen-edges';
import { cn } from '../../lib/utils';

export const Dialog = DialogPrimitive.Root;

/**
 * Where the dialog sits on a phone, how its content is laid out and how wide it gets from 640 px up.
 * Each property is set by one variant only: `cn` does not resolve conflicting utilities, so a
 * caller's className must not set display, padding, bottom/top, the top or bottom corners or the width.
 */
export const dialogContentVariants = cva(
  'fixed inset-x-0 z-50 max-h-[88dvh] overflow-y-auto overscroll-contain bg-background shadow-2xl outline-none ' +
    'sm:top-1/2 sm:right-auto sm:bottom-auto sm:left-1/2 sm:w-full sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-(--radius-cap) ' +
    'motion-safe:data-[state=open]:animate-dialog-in motion-safe:data-[state=closed]:animate-overlay-out',
  {
    variants: {
      /** 'stack': a column whose parts pad themselves; 'form': a padded grid of fields. */
      layout: {
        stack: 'flex flex-col pb-[max(1rem,env(safe-area-inset-bottom))] sm:pb-4',
        form: 'grid gap-4 px-5 pb-5 sm:p-6',
      },
      /** 'bottom': a bottom sheet (thumb reach); 'top': below the top edge, clear of the on-screen keyboard. */
      edge: {
        bottom: 'bottom-0 rounded-t-3xl',
        top: 'top-0 rounded-b-3xl pt-[max(1.5rem,env(safe-area-inset-top))]',
      },
      width: { md: 'sm:max-w-md', lg: 'sm:max-w-lg' },
    },
    // A form's top padding: its own at the bottom edge, the safe area's at the top edge.
    compoundVariants: [{ layout: 'form', edge: 'bottom', class: 'pt-5' }],
    defaultVariants: { layout: 'stack', edge: 'bottom', width: 'md' },
  },
);

/**
 * A modal dialog that is a bottom sheet on phones (thumb reach, full width, safe-area padding)
 * and a centred card from 640 px up. Focus is trapped inside and returned on close (Radix). One at
 * the top edge is a bar there for the toasts: on a phone they show below it, not over its fields
 * (lib/screen-edges.ts).
 */
export const DialogContent = forwardRef<
  ElementRef<typeof DialogPrimitive.Content>,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Content> & VariantProps<typeof dialogContentVariants>
>(function DialogContent({ className, children, edge, layout, width, ...props }, ref) {
  const topEdge = useScreenEdge('top');
  const contentRef = useCallback(
    (node: HTMLDivElement | null) => {
      setRef(ref, node);
      const leaveEdge = edge === 'top' && node ? topEdge(node) : undefined;
      return () => {
        leaveEdge?.();
        setRef(ref, null);
      };
    },
    [ref, edge, topEdge],
  );
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 motion-safe:data-[state=open]:animate-overlay-in motion-safe:data-[state=closed]:animate-overlay-out" />
      <DialogPrimitive.Content ref={contentRef} className={cn(dialogContentVariants({ edge, layout, width }), className)} {...props}>
        {children}
        <DialogPrimitive.Close
          aria-label="Close"
          className="absolute top-2 right-2 inline-flex size-11 items-center justify-center rounded-full text-foreground hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
        >
          <X className="size-5" aria-hidden />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
});

function setRef<T>(ref: ForwardedRef<T>, value: T | null) {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

export const DialogTitle = forwardRef<ElementRef<typeof DialogPrimitive.Title>, ComponentPropsWithoutRef<typeof DialogPrimitive.Title>>(
  function DialogTitle({ className, ...props }, ref) {
    return <DialogPrimitive.Title ref={ref} className={cn('text-lg font-bold tracking-tight', className)} {...props} />;
  },
);

export const DialogDescription = forwardRef<
  ElementRef<typeof DialogPrimitive.Description>,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Description>
>(function DialogDescription({ className, ...props }, ref) {
  return <DialogPrimitive.Description ref={ref} className={cn('text-sm text-muted-foreground', className)} {...props} />;
});
