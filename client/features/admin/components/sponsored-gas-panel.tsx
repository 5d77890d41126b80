import { Fuel, LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatUnits } from '../../../../common/money';
import type { SponsoredGas } from '../../../../common/sponsored-gas';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '../../../components/ui/accordion';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import { adminErrorText } from '../api/admin-errors';
import { useSponsoredGas } from '../api/get-sponsored-gas';
import { dayLabel, daysText, depositStanding, formatEth, paymentsText, sponsoredTotals } from '../lib/sponsored-gas-text';
import { Copyable, Fact, Facts, Pog } from './desk-bits';

type Enabled = Extract<SponsoredGas, { enabled: true }>;

/**
 * 'Sponsored gas' on the payments desk: when the shop pays smart wallets' gas, the paymaster's
 * deposit left in the EntryPoint (exact ETH; a warning when it holds less than one day's budget,
 * lib/sponsored-gas-text.ts says why), what is left of today's budget, what the sponsorships paid
 * and cost over the last 30 days (and what was wasted), the limits, and per day on demand; when it
 * does not, one line saying so and how to turn it on (docs/payments.md §9).
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

/**
 * A fact whose value, exact to the wei, may not fit beside its label on a phone: the value then
 * takes the line below, still on the right, instead of breaking inside a number.
 */
const wraps = 'flex-wrap [&>dd]:ml-auto';

function Enabled({ gas, retry }: { gas: Enabled; retry: ReactNode }) {
  const totals = sponsoredTotals(gas.days);
  const standing = gas.depositWei === null ? null : depositStanding(gas.depositWei, gas.dailyBudgetWei);
  const budget = `${formatEth(gas.dailyBudgetWei)} ETH`;
  // A hosted sponsor: the provider keeps the balance, nothing to read on chain and nothing wrong.
  const hosted = gas.paymaster === null;
  return (
    <>
      <Facts>
        <Fact label="Deposit left" testId="sponsored-gas-deposit-fact" className={wraps}>
          {hosted ? (
            <span data-testid="sponsored-gas-hosted">With your provider</span>
          ) : gas.depositWei === null ? (
            <span className="text-destructive">Unknown</span>
          ) : (
            <span className="tabular-nums" data-testid="sponsored-gas-deposit" data-wei={gas.depositWei}>
              {formatEth(gas.depositWei)} ETH
            </span>
          )}
        </Fact>
        <Fact label="Budget left today" testId="sponsored-gas-budget-fact" className={wraps}>
          <span className="tabular-nums">
            <span
              className={cn(gas.todayLeftWei === '0' && 'text-amber-800')}
              data-testid="sponsored-gas-budget-left"
              data-wei={gas.todayLeftWei}
            >
              {formatEth(gas.todayLeftWei)}
            </span>{' '}
            <span
              className="font-normal whitespace-nowrap text-muted-foreground"
              data-testid="sponsored-gas-budget"
              data-wei={gas.dailyBudgetWei}
            >
              of {budget}
            </span>
          </span>
        </Fact>
        <Fact label="Last 30 days" testId="sponsored-gas-total" className={cn(wraps, 'sm:col-span-2')}>
          <span className="flex flex-col items-end tabular-nums">
            <span>
              {paymentsText(totals.paid)} paid
              {totals.paid > 0 && (
                <>
                  {' '}
                  <span className="whitespace-nowrap">
                    (<Pog amount={formatUnits(totals.amountWei)} />)
                  </span>
                </>
              )}
            </span>
            <span className="font-normal text-muted-foreground" data-testid="sponsored-gas-spent" data-wei={totals.spentWei.toString()}>
              spent <span className="whitespace-nowrap">{formatEth(totals.spentWei)} ETH</span>
            </span>
            {totals.wasted > 0 && (
              <span className="text-amber-800" data-testid="sponsored-gas-wasted" data-wei={totals.wastedWei.toString()}>
                {totals.wasted.toLocaleString('en')} wasted, <span className="whitespace-nowrap">{formatEth(totals.wastedWei)} ETH</span>
              </span>
            )}
          </span>
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
            <strong>The deposit is low</strong>: under one day’s budget ({budget}), the most the shop spends on gas in a day, so it may run
            out before the day does. Once it does, the EntryPoint refuses sponsored payments and wallets pay their own fee. Top it up:{' '}
            <code>depositTo</code> on the EntryPoint for the paymaster (both addresses under “Per day and addresses”).
          </span>
        </p>
      )}
      {standing && !standing.low && (
        <p className="text-sm text-muted-foreground" data-testid="sponsored-gas-covers" data-days={standing.days.toString()}>
          Covers {daysText(standing.days)} of the full daily budget ({budget}); longer on days that spend less.
        </p>
      )}
      <p className="text-sm text-muted-foreground" data-testid="sponsored-gas-limits">
        Each account: at most {gas.senderDailyLimit.toLocaleString('en')} sponsored {gas.senderDailyLimit === 1 ? 'payment' : 'payments'} a
        day; an account whose sponsored payment was wasted gets no more.
      </p>

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

/**
 * A figure of a day: a cell of the table from 1024 px (where five columns of amounts exact to the
 * wei, 20 characters each, fit with room); below, a line of the day's block, its label (the
 * column's, from data-label) before it.
 */
const figureCell = cn(
  'flex min-w-0 items-baseline justify-between gap-3 py-0.5 text-right',
  'before:shrink-0 before:text-muted-foreground before:content-[attr(data-label)]',
  'lg:table-cell lg:py-1.5 lg:pl-3 lg:whitespace-nowrap lg:before:content-none',
);

/**
 * The days, newest first: a table from 1024 px; below, each day a block (its day and paid count,
 * then a line per figure), one column of them on a phone, two from 768 px.
 */
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
      <div className="overflow-x-auto">
        <table className="block w-full text-sm tabular-nums lg:table" data-testid="sponsored-gas-days">
          <caption className="sr-only">Sponsored payments per day (UTC), newest first, since {dayLabel(gas.since)}</caption>
          <thead className="sr-only lg:not-sr-only">
            <tr className="text-left text-muted-foreground">
              <th scope="col" className="py-1.5 font-medium">
                Day (UTC)
              </th>
              <th scope="col" className="py-1.5 pl-3 text-right font-medium">
                Paid
              </th>
              <th scope="col" className="py-1.5 pl-3 text-right font-medium">
                Spent (ETH)
              </th>
              <th scope="col" className="py-1.5 pl-3 text-right font-medium">
                Wasted (ETH)
              </th>
              <th scope="col" className="py-1.5 pl-3 text-right font-medium">
                Budget left (ETH)
              </th>
            </tr>
          </thead>
          <tbody className="block md:grid md:grid-cols-2 md:gap-x-6 lg:table-row-group">
            {gas.days.map((d) => (
              <tr
                key={d.day}
                className="grid grid-cols-[1fr_auto] border-t border-border/60 py-1.5 lg:table-row lg:py-0"
                data-testid="sponsored-gas-day"
                data-day={d.day}
              >
                <th scope="row" className="py-0.5 text-left font-semibold lg:py-1.5 lg:font-normal lg:whitespace-nowrap">
                  <time dateTime={d.day}>{dayLabel(d.day)}</time>
                </th>
                <td
                  className="py-0.5 text-right font-semibold lg:py-1.5 lg:pl-3 lg:font-normal lg:whitespace-nowrap"
                  data-testid="sponsored-gas-day-paid"
                >
                  {d.paid.toLocaleString('en')}
                  <span className="lg:hidden"> paid</span>
                </td>
                <td className={cn(figureCell, 'col-span-2')} data-label="Spent" data-testid="sponsored-gas-day-spent" data-wei={d.spentWei}>
                  <span className="break-all">
                    {formatEth(d.spentWei)}
                    <span className="lg:hidden"> ETH</span>
                  </span>
                </td>
                <td
                  className={cn(figureCell, 'col-span-2', d.wasted > 0 && 'text-amber-800')}
                  data-label="Wasted"
                  data-testid="sponsored-gas-day-wasted"
                  data-wei={d.wastedWei}
                >
                  {d.wasted > 0 ? (
                    <span className="break-all">
                      {d.wasted.toLocaleString('en')} ({formatEth(d.wastedWei)}
                      <span className="lg:hidden"> ETH</span>)
                    </span>
                  ) : (
                    <>
                      <span aria-hidden>—</span>
                      <span className="sr-only">none</span>
                    </>
                  )}
                </td>
                <td
                  className={cn(figureCell, 'col-span-2')}
                  data-label="Budget left"
                  data-testid="sponsored-gas-day-budget-left"
                  data-wei={d.budgetLeftWei}
                >
                  <span className="break-all">
                    {formatEth(d.budgetLeftWei)}
                    <span className="lg:hidden"> ETH</span>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-muted-foreground">
        Days without any are left out. Paid: operations that ran and paid their checkout. Spent: what the paymaster paid for the operations
        that ran that day. Wasted: those that reverted, ran without paying, or were never signed by the shop. Budget left today also holds
        back the most that sponsorships still in their window may cost.
      </p>
    </div>
  );
}
