import { Download } from 'lucide-react';
import { useState } from 'react';
import { buttonVariants } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { EXPORT_FILES, exportFileName, exportRangeProblem, exportUrl, thisMonth, type ExportRange } from '../lib/export-range';

/**
 * 'Export': one range of dates (UTC, inclusive; this month to start with) and the files for it, each
 * a CSV download: the desk's payments, Koinly's import and the order ledger (docs/books.md).
 */
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
        <DialogTitle>Export</DialogTitle>
        <DialogDescription>Files for your accountant, as CSV. Dates are UTC and include both ends.</DialogDescription>
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
      <ul className="grid gap-3" aria-label="Files">
        {EXPORT_FILES.map(({ file, label, hint }) => {
          const testId = file === 'payments' ? 'export-download' : `export-download-${file}`;
          return (
            <li key={file} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-lg border border-border p-3">
              <div className="grid min-w-0 flex-1 basis-48 gap-0.5">
                <span className="font-semibold">{label}</span>
                <span className="text-sm text-muted-foreground">{hint}</span>
              </div>
              {problem ? (
                <span
                  aria-disabled
                  className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'pointer-events-none text-muted-foreground')}
                >
                  <Download aria-hidden />
                  Download<span className="sr-only"> {label}</span>
                </span>
              ) : (
                <a
                  href={exportUrl(file, range)}
                  download={exportFileName(file, range)}
                  className={buttonVariants({ variant: 'outline', size: 'sm' })}
                  data-testid={testId}
                >
                  <Download aria-hidden />
                  Download<span className="sr-only"> {label}</span>
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
