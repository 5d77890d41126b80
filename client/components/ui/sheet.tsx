import * as DialogPrimitive from '@radix-ui/react-dialog';
import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import { forwardRef, type ComponentPropsWithoutRef, type ElementRef } from 'react';
import { cn } from '../../lib/utils';

export const Sheet = DialogPrimitive.Root;
export const SheetClose = DialogPrimitive.Close;

/**
 * How wide the sheet is ('panel': full width on phones, capped from 640 px up; 'drawer': three
 * quarters of the width, at most 24 rem). `cn` does not resolve conflicting utilities, so a
 * caller's className must not set the width.
 */
export const sheetContentVariants = cva(
  'fixed inset-y-0 right-0 z-50 flex h-full flex-col bg-background shadow-2xl outline-none sm:rounded-l-(--radius-cap) ' +
    'motion-safe:data-[state=open]:animate-sheet-in motion-safe:data-[state=closed]:animate-sheet-out',
  {
    variants: { width: { panel: 'w-full sm:max-w-xl', drawer: 'w-3/4 max-w-sm' } },
    defaultVariants: { width: 'panel' },
  },
);

/** A side sheet sliding in from the right. */
export const SheetContent = forwardRef<
  ElementRef<typeof DialogPrimitive.Content>,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Content> & VariantProps<typeof sheetContentVariants>
>(function SheetContent({ className, children, width, ...props }, ref) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 motion-safe:data-[state=open]:animate-overlay-in motion-safe:data-[state=closed]:animate-overlay-out" />
      <DialogPrimitive.Content ref={ref} className={cn(sheetContentVariants({ width }), className)} {...props}>
        {children}
        <DialogPrimitive.Close
          aria-label="Close"
          className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-full bg-background/90 text-foreground shadow-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
        >
          <X className="size-5" aria-hidden />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
});

export const sheetTitleVariants = cva('font-bold tracking-tight', {
  variants: { size: { lg: 'text-lg leading-tight', xl: 'text-xl' } },
  defaultVariants: { size: 'xl' },
});

export const SheetTitle = forwardRef<
  ElementRef<typeof DialogPrimitive.Title>,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Title> & VariantProps<typeof sheetTitleVariants>
>(function SheetTitle({ className, size, ...props }, ref) {
  return <DialogPrimitive.Title ref={ref} className={cn(sheetTitleVariants({ size }), className)} {...props} />;
});

export const sheetDescriptionVariants = cva('', {
  variants: {
    /** 'muted': the sentence under the title; 'eyebrow': a small brand-coloured label above it. */
    tone: { muted: 'text-sm text-muted-foreground', eyebrow: 'text-xs font-semibold tracking-wide text-brand uppercase' },
  },
  defaultVariants: { tone: 'muted' },
});

export const SheetDescription = forwardRef<
  ElementRef<typeof DialogPrimitive.Description>,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Description> & VariantProps<typeof sheetDescriptionVariants>
>(function SheetDescription({ className, tone, ...props }, ref) {
  return <DialogPrimitive.Description ref={ref} className={cn(sheetDescriptionVariants({ tone }), className)} {...props} />;
});
