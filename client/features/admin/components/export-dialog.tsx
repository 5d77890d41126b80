import { Download } from 'lucide-react';
import { useState } from 'react';
import { buttonVariants } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { exportRangeProblem, exportUrl, thisMonth, type ExportRange } from '../lib/export-range';

/** 'Export': payments and refunds between two dates (UTC, inclusive; this month to start with) as a CSV download. */
export function ExportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent layout="form" data-testid="export-dialog">
        {open && <ExportForm />}
      </DialogContent>
    </Dialog>
  );
}

function ExportForm() {
  const [range, setRange] = useState<ExportRange>(() => thisMonth());
  const problem = exportRangeProblem(range);
  return (
    <>
      <div className="grid gap-1 pr-10">
        <DialogTitle>Export payments</DialogTitle>
        <DialogDescription>Payments and refunds for your accountant, as CSV. Dates are UTC and include both ends.</DialogDescription>
      </div>
      <div className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2">
        <label className="grid gap-1.5 text-sm font-semibold" htmlFor="export-from">
          From
          <Input
            id="export-from"
            type="date"
            value={range.from}
            onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
            data-testid="export-from"
          />
        </label>
        <label className="grid gap-1.5 text-sm font-semibold" htmlFor="export-to">
          To
          <Input
            id="export-to"
            type="date"
            value={range.to}
            onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
            data-testid="export-to"
          />
        </label>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-800" data-testid="export-problem">
          {problem}
        </p>
      )}
      {problem ? (
        <span aria-disabled className={cn(buttonVariants({ size: 'lg' }), 'pointer-events-none opacity-50')}>
          <Download aria-hidden />
          Download CSV
        </span>
      ) : (
        <a
          href={exportUrl(range)}
          download={`payments-${range.from}-to-${range.to}.csv`}
          className={buttonVariants({ size: 'lg' })}
          data-testid="export-download"
        >
          <Download aria-hidden />
          Download CSV
        </a>
      )}
    </>
  );
}
