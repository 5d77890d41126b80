import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from './button';

interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** What goes to the clipboard. */
  value: string;
  /** The button's accessible name before and after copying, e.g. 'Copy address' / 'Address copied'. */
  label: string;
  copiedLabel: string;
  /** Shows the label beside the icon (otherwise icon only, the label for assistive technology). */
  showLabel?: boolean;
}

/**
 * Copies a value (an address, a payment link) and says so for 2 s. A blocked clipboard is
 * ignored: every copied value is also on screen and selectable.
 */
export function CopyButton({
  value,
  label,
  copiedLabel,
  showLabel = false,
  variant = 'ghost',
  size,
  className,
  ...props
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // Clipboard blocked (permissions, an old browser): the value is on screen.
    }
  };

  const icon = copied ? <Check aria-hidden className="text-brand" /> : <Copy aria-hidden />;
  return (
    <Button
      variant={variant}
      size={size ?? (showLabel ? 'sm' : 'icon')}
      className={className}
      aria-label={showLabel ? undefined : copied ? copiedLabel : label}
      onClick={() => void copy()}
      {...props}
    >
      {icon}
      {showLabel && <span aria-live="polite">{copied ? copiedLabel : label}</span>}
    </Button>
  );
}
