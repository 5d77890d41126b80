import { Fuel, LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatUnits } from '../../../../common/money';
import type { SponsoredGas } from '../../../../common/sponsored-gas';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '../../../components/ui/accordion';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { adminErrorText } from '../api/admin-errors';
import { useSponsoredGas } from '../api/get-sponsored-gas';
import { dayLabel, depositStanding, formatEth, paymentsText, sponsoredTotals } from '../lib/sponsored-gas-text';
import { Copyable, Fact, Facts, Pog } from './desk-bits';

type Enabled = Extract<SponsoredGas, { enabled: true }>;

/**
 * 'Sponsored gas' on the payments desk: when the shop pays smart wallets' gas, the paymaster's
 * deposit left in the EntryPoint (exact ETH; a warning when it is low, lib/sponsored-gas-text.ts
 * says why), what it paid for over the last 30 days, and per day on demand; when it does not, one
 * line saying so and how to turn it on (docs/payments.md §9).
 */
export function SponsoredGasPanel() {
  const gas = useSponsoredGas();
  const retry = (
    <Button variant="outline" size="sm" className="justify-self-start" onClick={() => void gas.refetch()} disabled={gas.isFetching}>
      <RefreshCw aria-hidden className={gas.isFetching ? 'motion-safe:animate-spin' : undefined} />
      Try again
    </Button>
  );
  return (
    <Card
      role="region"
      aria-labelledby="sponsored-gas-heading"
      className="grid gap-3 p-4 sm:p-5"
      data-testid="sponsored-gas"
      data-state={gas.data ? (gas.data.enabled ? 'on' : 'off') : gas.isError ? 'error' : 'loading'}
    >
      <h2 id="sponsored-gas-heading" className="flex items-center gap-2 text-lg font-bold">
        <Fuel aria-hidden className="size-5 text-muted-foreground" />
        Sponsored gas
      </h2>
      {gas.data?.enabled === true && <Enabled gas={gas.data} retry={retry} />}
      {gas.data?.enabled === false && (
        <p className="text-sm text-muted-foreground" data-testid="sponsored-gas-off">
          Off: smart wallets pay their own network fee. To have the shop pay it, deploy and fund the shop’s paymaster and set{' '}
          <code className="font-mono text-xs">PAYMASTER_ADDRESS</code> and <code className="font-mono text-xs">PAYMASTER_SIGNER_KEY</code>,
          or set a hosted paymaster’s <code className="font-mono text-xs">PAYMASTER_SERVICE_URL</code> (how:{' '}
          <code className="font-mono text-xs">docs/payments.md</code> §9).
        </p>
      )}
      {!gas.data && gas.isError && (
        <div role="alert" className="grid justify-items-start gap-2" data-testid="sponsored-gas-error">
          <p className="text-sm break-words text-muted-foreground">Could not load it: {adminErrorText(gas.error, gas.error.message)}</p>
          {retry}
        </div>
      )}
      {!gas.data && !gas.isError && (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <LoaderCircle aria-hidden className="size-4 motion-safe:animate-spin" /> Loading...
        </p>
      )}
    </Card>
  );
}

function Enabled({ gas, retry }: { gas: Enabled; retry: ReactNode }) {
  const totals = sponsoredTotals(gas.days);
  const standing = gas.depositWei === null ? null : depositStanding(gas.depositWei, gas.maxOperationCostWei);
  const most = `${formatEth(gas.maxOperationCostWei)} ETH`;
  // A hosted sponsor: the provider keeps the balance, nothing to read on chain and nothing wrong.
  const hosted = gas.paymaster === null;
  return (
    <>
      <Facts>
        <Fact label="Deposit left" testId="sponsored-gas-deposit-fact">
          {hosted ? (
            <span data-testid="sponsored-gas-hosted">With your provider</span>
          ) : gas.depositWei === null ? (
            <span className="text-destructive">Unknown</span>
          ) : (
            <span className="break-all tabular-nums" data-testid="sponsored-gas-deposit" data-wei={gas.depositWei}>
              {formatEth(gas.depositWei)} ETH
            </span>
          )}
        </Fact>
        <Fact label="Last 30 days" testId="sponsored-gas-total">
          <span className="tabular-nums">{paymentsText(totals.sponsorships)}</span>
          {totals.sponsorships > 0 && (
            <>
              {', '}
              <Pog amount={formatUnits(totals.amountWei)} />
            </>
          )}
        </Fact>
      </Facts>

      {hosted && (
        <p className="text-sm text-muted-foreground">
          A hosted paymaster pays the gas and bills you: its dashboard shows your balance and spend.
        </p>
      )}
      {!hosted && gas.depositWei === null && (
        <div role="alert" className="grid justify-items-start gap-2 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-950">
          <p className="flex items-start gap-2" data-testid="sponsored-gas-deposit-error">
            <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span className="break-words">Could not read the deposit. {gas.depositError}</span>
          </p>
          {retry}
        </div>
      )}
      {standing?.low && (
        <p
          className="flex items-start gap-2 rounded-xl border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950"
          data-testid="sponsored-gas-low"
        >
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            <strong>The deposit is low</strong>: under {formatEth(standing.lowBelowWei)} ETH, ten payments at the most one can cost ({most}
            ). The EntryPoint refuses a sponsored payment once the deposit holds less than that most. Top it up: <code>depositTo</code> on
            the EntryPoint for the paymaster.
          </span>
        </p>
      )}
      {standing && !standing.low && (
        <p className="text-sm text-muted-foreground" data-testid="sponsored-gas-covers">
          Covers at least {paymentsText(standing.payments)} even at the most one can cost ({most}); usually far more.
        </p>
      )}

      <Accordion type="single" collapsible>
        <AccordionItem value="days" className="border-t border-b-0">
          <AccordionTrigger className="min-h-11 py-2 text-sm" data-testid="sponsored-gas-days-toggle">
            Per day and addresses
          </AccordionTrigger>
          <AccordionContent className="grid gap-3 pb-1 text-foreground">
            <DaysTable gas={gas} />
            <Facts>
              {gas.paymaster && (
                <Fact label="Paymaster">
                  <Copyable value={gas.paymaster} what="paymaster address" />
                </Fact>
              )}
              <Fact label="EntryPoint">
                <Copyable value={gas.entryPoint} what="EntryPoint address" />
              </Fact>
            </Facts>
          </AccordionContent>
        </AccordionItem>
      </Accordion>
    </>
  );
}

function DaysTable({ gas }: { gas: Enabled }) {
  if (gas.days.length === 0) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="sponsored-gas-no-days">
        No sponsored payments since {dayLabel(gas.since)}.
      </p>
    );
  }
  return (
    <div className="grid gap-1">
      <table className="w-full text-sm tabular-nums" data-testid="sponsored-gas-days">
        <caption className="sr-only">Sponsored payments per day (UTC), newest first, since {dayLabel(gas.since)}</caption>
        <thead>
          <tr className="text-left text-muted-foreground">
            <th scope="col" className="py-1.5 font-medium">
              Day (UTC)
            </th>
            <th scope="col" className="py-1.5 text-right font-medium">
              Payments
            </th>
            <th scope="col" className="py-1.5 text-right font-medium">
              Paid
            </th>
          </tr>
        </thead>
        <tbody>
          {gas.days.map((d) => (
            <tr key={d.day} className="border-t border-border/60" data-testid="sponsored-gas-day" data-day={d.day}>
              <td className="py-1.5">
                <time dateTime={d.day}>{dayLabel(d.day)}</time>
              </td>
              <td className="py-1.5 text-right">{d.sponsorships.toLocaleString('en')}</td>
              <td className="py-1.5 text-right">
                <Pog amount={formatUnits(BigInt(d.amountWei))} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-xs text-muted-foreground">
        Days without any are left out. A payment counts once its sponsorship is granted (the shop’s paymaster signed it, or its hosted
        sponsor did), even if the wallet then does not send it.
      </p>
    </div>
  );
}
