import { expect, test, type Locator, type Page } from './fixtures/test';
import { Contract, JsonRpcProvider, parseEther } from 'ethers';
import { sponsoredGasSchema, type SponsoredGas, type SponsoredGasDay } from '../common/sponsored-gas';
import { daysText, formatEth, paymentsText, sponsoredTotals } from '../client/features/admin/lib/sponsored-gas-text';
import { logInAsAdmin } from './fixtures/admin';
import { CHAIN_RPC, DEV_ACCOUNTS } from './fixtures/test-wallet';
import { mined } from '../server/chain/mined';

// The payments desk's 'Sponsored gas' panel, on a tablet and on a 390 px phone, against the local
// shop, whose own paymaster (deployed by local mode, owned by dev account #0) pays smart wallets'
// gas from its deposit in the EntryPoint: the panel shows the deposit the chain holds, today's
// budget and the limits, and warns once the owner has withdrawn the deposit below one day's budget
// (PAYMASTER_DAILY_BUDGET_ETH, 0.01 ETH in local mode). Then the per-day table with the widest
// figures a month can bring, to see it read on both screens.
test.use({ serviceWorkers: 'block' });

type Enabled = Extract<SponsoredGas, { enabled: true }>;

/** The page may not scroll sideways. */
async function noOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/**
 * Nothing in the panel reaches past its edges, and no fact's value runs into its label (a long
 * figure clipped, spilling out or overlapping would). What only screen readers get is left out.
 */
async function withinPanel(panel: Locator) {
  const faults = await panel.evaluate((el) => {
    const edge = el.getBoundingClientRect();
    const seen = (child: Element) => !child.closest('.sr-only');
    const outside = [...el.querySelectorAll('*')].filter((child) => {
      const box = child.getBoundingClientRect();
      return seen(child) && box.width > 0 && (box.left < edge.left - 0.5 || box.right > edge.right + 0.5);
    });
    const overlapping = [...el.querySelectorAll('dl > div')].filter((fact) => {
      const label = fact.querySelector('dt')!.getBoundingClientRect();
      // The value's own lines, not its box (which spans the row once it wraps below the label).
      const lines = [...fact.querySelector('dd')!.querySelectorAll('*')].map((c) => c.getBoundingClientRect()).filter((b) => b.width > 0);
      return lines.some((b) => b.left < label.right && b.top < label.bottom && b.bottom > label.top);
    });
    return [...outside, ...overlapping].map((child) => child.outerHTML.slice(0, 80));
  });
  expect(faults).toEqual([]);
}

/** Every button in `scope` is a 44 px touch target. */
async function touchTargets(scope: Locator) {
  for (const control of await scope.locator('button').all()) {
    const box = await control.boundingBox();
    if (box) expect(box.height, await control.evaluate((el) => el.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
  }
}

const sizeOf = (projectName: string) => (projectName === 'phone' ? 'phone' : 'tablet');

test("the sponsored gas panel: the paymaster's real deposit, today's budget and the limits, and a warning under one day's budget", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const size = sizeOf(testInfo.project.name);
  if (size === 'phone') await page.setViewportSize({ width: 390, height: 844 });
  const panel = page.getByTestId('sponsored-gas');
  const shot = async (name: string) => {
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`sponsored-gas-${name}-${size}.png`) });
  };

  await logInAsAdmin(page);
  const answer = sponsoredGasSchema.parse(await (await page.request.get('/api/admin/paymaster')).json());
  if (!answer.enabled) throw new Error('expected local mode to pay smart wallets’ gas');
  const gas: Enabled = answer;
  // Local mode runs with the defaults.
  const budget = BigInt(gas.dailyBudgetWei);
  expect(budget).toBe(parseEther('0.01'));
  expect(gas.senderDailyLimit).toBe(5);
  const provider = new JsonRpcProvider(CHAIN_RPC, 8453, { staticNetwork: true });
  const owner = await provider.getSigner(DEV_ACCOUNTS[0]);
  const entryPoint = new Contract(
    gas.entryPoint,
    ['function balanceOf(address) view returns (uint256)', 'function depositTo(address) payable'],
    owner,
  );
  const paymaster = new Contract(gas.paymaster!, ['function withdrawTo(address to, uint256 amount)'], owner);
  const deposit = (): Promise<bigint> => entryPoint.getFunction('balanceOf')(gas.paymaster);
  try {
    await page.getByTestId('admin-tab-payments').click();
    await expect(panel).toHaveAttribute('data-state', 'on');
    const before = await deposit();
    expect(before).toBeGreaterThanOrEqual(budget);
    await expect(panel.getByTestId('sponsored-gas-deposit')).toHaveAttribute('data-wei', before.toString());
    await expect(panel.getByTestId('sponsored-gas-deposit')).toHaveText(`${formatEth(before)} ETH`);
    await expect(panel.getByTestId('sponsored-gas-budget-left')).toHaveAttribute('data-wei', gas.todayLeftWei);
    await expect(panel.getByTestId('sponsored-gas-budget-left')).toHaveText(formatEth(gas.todayLeftWei));
    await expect(panel.getByTestId('sponsored-gas-budget')).toHaveText('of 0.01 ETH');
    const totals = sponsoredTotals(gas.days);
    await expect(panel.getByTestId('sponsored-gas-total')).toContainText(`${paymentsText(totals.paid)} paid`);
    await expect(panel.getByTestId('sponsored-gas-spent')).toHaveText(`spent ${formatEth(totals.spentWei)} ETH`);
    await expect(panel.getByTestId('sponsored-gas-wasted')).toHaveCount(totals.wasted > 0 ? 1 : 0);
    await expect(panel.getByTestId('sponsored-gas-covers')).toHaveText(
      `Covers ${daysText(before / budget)} of the full daily budget (0.01 ETH); longer on days that spend less.`,
    );
    await expect(panel.getByTestId('sponsored-gas-limits')).toHaveText(
      'Each account: at most 5 sponsored payments a day; an account whose sponsored payment was wasted gets no more.',
    );
    await expect(panel.getByTestId('sponsored-gas-low')).toHaveCount(0);
    await noOverflow(page);
    await withinPanel(panel);
    await shot('on');

    await panel.getByTestId('sponsored-gas-days-toggle').click();
    if (gas.days.length) await expect(panel.getByTestId('sponsored-gas-day')).toHaveCount(gas.days.length);
    else await expect(panel.getByTestId('sponsored-gas-no-days')).toContainText('No sponsored payments since');
    await expect(panel).toContainText(`${gas.paymaster!.slice(0, 6)}...${gas.paymaster!.slice(-4)}`);
    await touchTargets(panel);
    await noOverflow(page);
    await panel.screenshot({ path: testInfo.outputPath(`sponsored-gas-days-${size}.png`) });

    // The owner takes the deposit down to exactly one day's budget: not low yet, one day covered.
    await mined(paymaster.getFunction('withdrawTo')(DEV_ACCOUNTS[0], before - budget));
    await page.reload();
    await expect(panel.getByTestId('sponsored-gas-deposit')).toHaveText('0.01 ETH');
    await expect(panel.getByTestId('sponsored-gas-covers')).toContainText('Covers 1 day of the full daily budget');
    await expect(panel.getByTestId('sponsored-gas-low')).toHaveCount(0);

    // A wei less: under one day's budget, low, and how to top it up.
    await mined(paymaster.getFunction('withdrawTo')(DEV_ACCOUNTS[0], 1n));
    await page.reload();
    await expect(panel.getByTestId('sponsored-gas-deposit')).toHaveText('0.009999999999999999 ETH');
    await expect(panel.getByTestId('sponsored-gas-low')).toContainText('The deposit is low: under one day’s budget (0.01 ETH)');
    await expect(panel.getByTestId('sponsored-gas-low')).toContainText('depositTo on the EntryPoint for the paymaster');
    await expect(panel.getByTestId('sponsored-gas-covers')).toHaveCount(0);
    await noOverflow(page);
    await withinPanel(panel);
    await shot('low');
  } finally {
    // Topped up to the 10 ETH local mode starts with, for the specs that pay through it.
    const short = parseEther('10') - (await deposit());
    if (short > 0n) await mined(entryPoint.getFunction('depositTo')(gas.paymaster, { value: short }));
    provider.destroy();
  }
});

/**
 * A month of the widest figures: every day listed, each amount exact to the wei (18 decimals),
 * wasted operations on some days, a day whose budget is spent, a long deposit under the budget.
 */
function widestMonth(real: Enabled): Enabled {
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const days: SponsoredGasDay[] = Array.from({ length: 30 }, (_, i) => {
    const spent = 9_876_543_210_123_456n + BigInt(i) * 111_111_111_111_111n;
    const wasted = i % 3 === 0 ? 0 : i;
    const wastedWei = wasted ? spent / 7n + 1n : 0n;
    const left = i === 1 ? 0n : parseEther('0.01') - spent / 3n;
    return {
      day: new Date(today - i * 86_400_000).toISOString().slice(0, 10),
      sponsorships: 1_000 + i,
      paid: 999 + i - wasted,
      wasted,
      spentWei: spent.toString(),
      wastedWei: wastedWei.toString(),
      amountWei: (123_456_789_012_345_678_901n * BigInt(i + 1)).toString(),
      budgetLeftWei: left.toString(),
    };
  });
  return sponsoredGasSchema.parse({
    ...real,
    depositWei: '9876543210987654',
    todayLeftWei: '1234567890123457',
    since: days.at(-1)!.day,
    days,
  }) as Enabled;
}

test('the per-day table with the widest figures: every day, exact to the wei, reads without the page scrolling sideways', async ({
  page,
}, testInfo) => {
  const size = sizeOf(testInfo.project.name);
  if (size === 'phone') await page.setViewportSize({ width: 390, height: 844 });
  await logInAsAdmin(page);
  const real = sponsoredGasSchema.parse(await (await page.request.get('/api/admin/paymaster')).json());
  if (!real.enabled) throw new Error('expected local mode to pay smart wallets’ gas');
  const month = widestMonth(real);
  await page.route('**/api/admin/paymaster', (route) => route.fulfill({ json: month, headers: { 'cache-control': 'no-store' } }));

  await page.getByTestId('admin-tab-payments').click();
  const panel = page.getByTestId('sponsored-gas');
  await expect(panel.getByTestId('sponsored-gas-low')).toBeVisible();
  const totals = sponsoredTotals(month.days);
  await expect(panel.getByTestId('sponsored-gas-wasted')).toHaveText(`${totals.wasted} wasted, ${formatEth(totals.wastedWei)} ETH`);
  await noOverflow(page);
  await withinPanel(panel);
  await panel.screenshot({ path: testInfo.outputPath(`sponsored-gas-widest-facts-${size}.png`) });
  await panel.getByTestId('sponsored-gas-days-toggle').click();
  const rows = panel.getByTestId('sponsored-gas-day');
  await expect(rows).toHaveCount(30);
  for (const i of [0, 1, 2, 29]) {
    const d = month.days[i]!;
    const row = panel.locator(`[data-testid="sponsored-gas-day"][data-day="${d.day}"]`);
    await expect(row.getByTestId('sponsored-gas-day-paid')).toContainText(d.paid.toLocaleString('en'));
    await expect(row.getByTestId('sponsored-gas-day-spent')).toContainText(formatEth(d.spentWei));
    await expect(row.getByTestId('sponsored-gas-day-budget-left')).toContainText(formatEth(d.budgetLeftWei));
    const wasted = row.getByTestId('sponsored-gas-day-wasted');
    if (d.wasted) await expect(wasted).toContainText(`${d.wasted} (${formatEth(d.wastedWei)} ETH)`);
    else await expect(wasted).toContainText('—');
    // Each figure on one line: none wraps or spills out of its row.
    for (const cell of await row.locator('td').all()) {
      const box = (await cell.boundingBox())!;
      const line = await cell.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      expect(box.height, await cell.innerText()).toBeLessThan(2 * line);
    }
  }
  // Wasted in a warning colour, a day without any in the table's.
  const colour = (testId: string, day: string) =>
    panel
      .locator(`[data-day="${day}"]`)
      .getByTestId(testId)
      .evaluate((el) => getComputedStyle(el).color);
  expect(await colour('sponsored-gas-day-wasted', month.days[1]!.day)).not.toBe(
    await colour('sponsored-gas-day-spent', month.days[1]!.day),
  );
  expect(await colour('sponsored-gas-day-wasted', month.days[0]!.day)).toBe(await colour('sponsored-gas-day-spent', month.days[0]!.day));
  // The table does not scroll inside its wrapper either: it is laid out for the screen.
  const table = panel.getByTestId('sponsored-gas-days');
  expect(await table.evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth)).toBeLessThanOrEqual(0);
  await noOverflow(page);
  await withinPanel(panel);
  await touchTargets(panel);
  await table.screenshot({ path: testInfo.outputPath(`sponsored-gas-widest-table-${size}.png`) });
});
