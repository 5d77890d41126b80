import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { AttentionList } from '../components/attention-list';
import { ExportDialog } from '../components/export-dialog';
import { SponsoredGasPanel } from '../components/sponsored-gas-panel';

/** /admin/payments: the sponsored gas's deposit (compact), the transfers that need a person, and the accountant's export. */
export function PaymentsPage() {
  const [exportOpen, setExportOpen] = useState(false);
  return (
    <div className="mx-auto grid max-w-4xl grid-cols-[minmax(0,1fr)] gap-5 px-4 py-6 sm:px-6" data-testid="payments-page">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-black tracking-tight">Payments</h1>
        <Button variant="outline" onClick={() => setExportOpen(true)} data-testid="export-button">
          <Download aria-hidden />
          Export CSV
        </Button>
      </header>
      <SponsoredGasPanel />
      <AttentionList />
      <ExportDialog open={exportOpen} onOpenChange={setExportOpen} />
    </div>
  );
}
