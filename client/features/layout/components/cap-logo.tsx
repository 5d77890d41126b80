/** The shop's mark: a milk cap in the accent colour. */
export function CapLogo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={className}>
      <circle cx="16" cy="16" r="15" fill="#6d28d9" />
      <circle cx="16" cy="16" r="10.5" fill="#fde047" />
      <circle cx="16" cy="16" r="6" fill="none" stroke="#6d28d9" strokeWidth="2.2" strokeDasharray="3 2.2" />
    </svg>
  );
}
