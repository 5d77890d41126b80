import { expect, test } from './fixtures/test';
import { Contract, JsonRpcProvider, parseEther } from 'ethers';
import type { SponsoredGas } from '../common/sponsored-gas';
import { formatEth, paymentsText, sponsoredTotals } from '../client/features/admin/lib/sponsored-gas-text';
import { logInAsAdmin } from './fixtures/admin';
import { CHAIN_RPC, DEV_ACCOUNTS } from './fixtures/test-wallet';

// The payments desk's 'Sponsored gas' panel, on a tablet and on a 390 px phone, against the local
// shop, whose own paymaster (deployed by local mode, owned by dev account #0) pays smart wallets'
// gas from its deposit in the EntryPoint: the panel shows the deposit the chain holds, and warns
// once the owner has withdrawn it down to less than ten payments' worth.
test.use({ serviceWorkers: 'block' });

type Enabled = Extract<SponsoredGas, { enabled: true }>;

test("the sponsored gas panel: the paymaster's real deposit and days, and a warning when the deposit runs low", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const size = testInfo.project.name === 'phone' ? 'phone' : 'tablet';
  if (size === 'phone') await page.setViewportSize({ width: 390, height: 844 });
  const panel = page.getByTestId('sponsored-gas');
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`sponsored-gas-${name}-${size}.png`) });
  const noOverflow = async () =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await logInAsAdmin(page);
  const gas = (await (await page.request.get('/api/admin/paymaster')).json()) as Enabled;
  expect(gas.enabled).toBe(true);
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
    await expect(panel.getByTestId('sponsored-gas-deposit')).toHaveAttribute('data-wei', before.toString());
    await expect(panel.getByTestId('sponsored-gas-deposit')).toHaveText(`${formatEth(before)} ETH`);
    await expect(panel.getByTestId('sponsored-gas-total')).toContainText(paymentsText(sponsoredTotals(gas.days).sponsorships));
    await expect(panel.getByTestId('sponsored-gas-covers')).toBeVisible();
    await expect(panel.getByTestId('sponsored-gas-low')).toHaveCount(0);
    await noOverflow();
    await shot('on');
    await panel.getByTestId('sponsored-gas-days-toggle').click();
    await expect(panel.getByTestId('sponsored-gas-day')).toHaveCount(gas.days.length);
    await expect(panel).toContainText(`${gas.paymaster!.slice(0, 6)}...${gas.paymaster!.slice(-4)}`);
    for (const control of await panel.locator('button').all()) {
      const box = await control.boundingBox();
      if (box) expect(box.height, await control.evaluate((el) => el.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
    }
    await noOverflow();
    await panel.screenshot({ path: testInfo.outputPath(`sponsored-gas-days-${size}.png`) });

    // The owner takes the deposit down to 0.02 ETH, under ten payments at the most one can cost.
    await (await paymaster.getFunction('withdrawTo')(DEV_ACCOUNTS[0], before - parseEther('0.02'))).wait();
    await page.reload();
    await expect(panel.getByTestId('sponsored-gas-deposit')).toHaveText('0.02 ETH');
    await expect(panel.getByTestId('sponsored-gas-low')).toContainText('under 0.0276 ETH');
    await expect(panel.getByTestId('sponsored-gas-covers')).toHaveCount(0);
    await noOverflow();
    await shot('low');
  } finally {
    // Topped up to the 10 ETH local mode starts with, for the specs that pay through it.
    const short = parseEther('10') - (await deposit());
    if (short > 0n) await (await entryPoint.getFunction('depositTo')(gas.paymaster, { value: short })).wait();
    provider.destroy();
  }
});
