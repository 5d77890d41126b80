/**
 * What paying with the shop paying the gas costs a shopper and the shop (`npm run bench:sponsored-payment`,
 * which builds first): the built shop in local mode (`node dist-server/main.js` with NODE_ENV=test,
 * its own data folder and ports, as the e2e runs it), alto as the bundler (e2e/fixtures/bundler.ts)
 * and Debian's Chromium at 390×844, all on the same local chain in the same run.
 *
 * 1. Time from tap to order: from the click on the cart drawer's Pay button to the answer of
 *    POST /api/orders/create, and to the 'Order Created' toast, for (a) a plain key with POGS and
 *    ETH (dev account #4, sent POGS by #1) and (b) a smart wallet with POGS and no ETH
 *    (e2e/fixtures/smart-wallet.ts), the shop's paymaster paying: its first payment (which deploys
 *    the account: a fresh wallet each sample) and a later one (one deployed account). Interleaved
 *    plain, first, later, … with BENCH_RUNS (5) samples of each, after one unmeasured payment of
 *    each kind. For (b), where the time goes: the wallet's steps (paymaster stub, the bundler's
 *    estimate, final paymaster data, sent) and the bundler's inclusion (its receipt, asked every 25 ms).
 * 2. Gas per payment: the user operation's actualGasUsed and actualGasCost and the bundle
 *    transaction's gasUsed (eth_getUserOperationReceipt), beside the plain transfer's gasUsed.
 * 3. What the shop's deposit paid for each sponsored payment (actualGasCost) against what the
 *    operation used at its block's base fee: its bundle transaction's gasUsed (a bundle of one)
 *    × that base fee, the cost of an honest bundler before its tip. Each sponsored payment starts
 *    from Base's fees: the local chain's base fee set to 0.01 gwei, and ten blocks with no tip in
 *    them (the network's tip is then Base's least, 0.001 gwei), as the shop reads them when it signs.
 *
 * Printed as Markdown for bench/README.md. Nothing is asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from '@playwright/test';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import type { Product, PublicConfig } from '../common/api';
import { CHROMIUM_ARGS } from '../e2e/fixtures/chromium';
import { startBundler, type Bundler } from '../e2e/fixtures/bundler';
import { SmartAccountWallet } from '../e2e/fixtures/smart-wallet';
import type { TestWallet as TestWalletType } from '../e2e/fixtures/test-wallet';
import { localEntryPoint } from '../server/chain/local-paymaster';
import { mined } from '../server/chain/mined';

const ROOT = join(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 4471);
const CHAIN_PORT = Number(process.env.BENCH_CHAIN_PORT ?? 8671);
const CHROMIUM_PATH = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const BASE_URL = `http://localhost:${PORT}`;
const CHAIN = `http://127.0.0.1:${CHAIN_PORT}`;
/** The plain key: has ETH, and POGS once #1 sends it some. */
const PLAIN_ACCOUNT = 4;
/** Base's fee assumed for the cost column (an assumption, not measured: Base's L2 fee is often about this). */
const BASE_GWEI = 0.01;
/** The dollar price of ETH assumed for the same column (an assumption too). */
const ETH_USD = Number(process.env.BENCH_ETH_USD ?? 3000);
const STEP_TIMEOUT_MS = 60_000;

// The test wallet reads the chain's address when it loads: it must be this run's chain.
process.env.E2E_CHAIN_RPC = CHAIN;
const { DEV_ACCOUNTS, TestWallet } = await import('../e2e/fixtures/test-wallet');
const { closeToasts } = await import('../e2e/fixtures/ui');

type Kind = 'plain' | 'first' | 'later';
interface Sample {
  kind: Kind;
  /** ms from the click to POST /api/orders/create's answer, and to the 'Order Created' toast. */
  order: number;
  toast: number;
  /** ms from the click to each step seen (checkout created; the smart wallet's steps; included). */
  steps: Record<string, number>;
  gas: Gas;
}
interface Gas {
  /** The plain transfer's gasUsed, or the bundle transaction's. */
  txGasUsed: bigint;
  /** The base fee of the block the bundle landed in (sponsored only). */
  baseFee?: bigint;
  /** The user operation's actualGasUsed and actualGasCost (sponsored only). */
  opGasUsed?: bigint;
  opGasCost?: bigint;
  /** The gas limits the bundler estimated and the wallet sent: call, verification, preVerificationGas (sponsored only). */
  limits?: [bigint, bigint, bigint];
}
interface OpReceipt {
  actualGasUsed: string;
  actualGasCost: string;
  success: boolean;
  receipt: { gasUsed: string; transactionHash: string };
}

async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** The built shop in local mode, in its own process group (its anvil with it), stopped by `stop`. */
async function startShop(dataDir: string): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['dist-server/main.js'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE_URL,
      DATA_DIR: dataDir,
      LOCAL_CHAIN_PORT: String(CHAIN_PORT),
      LOG_LEVEL: 'warn',
      // The 'later' payments all come from one account: more than the five a day it gets by default.
      PAYMASTER_SENDER_DAILY_LIMIT: '1000',
    },
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  let exited = child.exitCode !== null;
  const done = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const onExit = () => group('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (!exited) {
      group('SIGTERM');
      const hard = setTimeout(() => group('SIGKILL'), 10_000);
      await done;
      clearTimeout(hard);
    }
    // Whatever it started and left behind in its group (the chain).
    group('SIGKILL');
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the shop ended before it was healthy:\n${errors}`);
    try {
      if ((await fetch(`${BASE_URL}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok) return { child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`the shop did not answer /api/health in time:\n${errors}`);
}

/** The single-variant product with the most stock now. */
async function pickVariant(): Promise<string> {
  const products = (await (await fetch(`${BASE_URL}/api/products`)).json()) as Product[];
  const best = products
    .filter((p) => p.variants.length === 1 && !p.variants[0]!.isSoldOut && p.variants[0]!.availableStock > 0)
    .sort((a, b) => b.variants[0]!.availableStock - a.variants[0]!.availableStock)[0];
  if (!best) throw new Error('no single-variant product with stock');
  return best.variants[0]!.id;
}

/** One payment from a new tab: connect, one item in the cart, then the timed part from the Pay button on. */
async function pay(browser: Browser, kind: Kind, chain: JsonRpcProvider, bundler: Bundler, smart?: SmartAccountWallet): Promise<Sample> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  try {
    // tsx compiles the test wallet's page-side function with esbuild's name helper (`__name`),
    // which the page does not have (Playwright's own runner compiles without it).
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const wallet: TestWalletType = await TestWallet.install(page, smart ? { smart } : { account: PLAIN_ACCOUNT });
    // The shop moves to the shipping page 1.5 s after the toast: keep the page where it is.
    await page.route(/\/orders\/[^/]+\/shipping$/, (route) => route.fulfill({ contentType: 'text/html', body: '' }));
    await page.goto('/');
    await page.getByTestId('wallet-button').click();
    await page.locator('[data-testid="wallet-chooser"]:not([data-searching])').waitFor();
    await page.locator('[data-testid="wallet-option"][data-rdns="dev.pogs.e2e-wallet"]').click();
    await page.getByTestId('wallet-address').waitFor();
    await closeToasts(page);
    const added = await page.request.post('/api/cart/add', { data: { variantId: await pickVariant(), quantity: 1 } });
    if (!added.ok()) throw new Error(`cart/add answered ${added.status()}`);
    await page.getByTestId('cart-button').click();
    const drawer = page.getByTestId('cart-drawer');
    await drawer.getByTestId('cart-item').first().waitFor();
    const payButton = drawer.getByTestId('pay-button');
    await payButton.waitFor();

    const steps: Record<string, number> = {};
    let t0 = 0;
    const at = () => performance.now() - t0;
    let included: Promise<OpReceipt> | null = null;
    if (smart) {
      smart.onStep = (step, hash) => {
        steps[step] = at();
        if (step === 'sent') included = untilIncluded(bundler, hash!, () => (steps.included = at()));
      };
    }
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/api/checkout' && r.request().method() === 'POST' && steps.checkout === undefined) {
        steps.checkout = at();
      }
    });
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300, {
      timeout: STEP_TIMEOUT_MS,
    });
    const operationsBefore = smart?.operations.length ?? 0;
    t0 = performance.now();
    await payButton.click();
    const response = await created;
    const order = at();
    await page.getByTestId('toast').filter({ hasText: 'Order Created' }).first().waitFor();
    const toast = at();
    const txHash = (response.request().postDataJSON() as { transactionHash: string }).transactionHash;

    let gas: Gas;
    if (smart) {
      if (smart.operations.length !== operationsBefore + 1 || !included) throw new Error('the smart wallet sent no user operation');
      const op = await (included as Promise<OpReceipt>);
      if (!op.success) throw new Error('the user operation reverted');
      const block = await chain.getBlock((await chain.getTransactionReceipt(op.receipt.transactionHash))!.blockNumber);
      const sent = smart.operations.at(-1)!.op;
      gas = {
        limits: [BigInt(sent.callGasLimit), BigInt(sent.verificationGasLimit), BigInt(sent.preVerificationGas)],
        txGasUsed: BigInt(op.receipt.gasUsed),
        opGasUsed: BigInt(op.actualGasUsed),
        opGasCost: BigInt(op.actualGasCost),
        baseFee: block!.baseFeePerGas!,
      };
      if ((await chain.getBalance(smart.address)) !== 0n) throw new Error('the smart account has ETH: it did not pay with none');
    } else {
      if (!wallet.methods().includes('eth_sendTransaction')) throw new Error('the plain wallet sent no transaction');
      gas = { txGasUsed: (await chain.getTransactionReceipt(txHash))!.gasUsed };
    }
    return { kind, order, toast, steps, gas };
  } finally {
    if (smart) smart.onStep = undefined;
    await context.close();
  }
}

/** The bundler's receipt for `hash`, asked every 25 ms; `seen` is called when it first answers. */
async function untilIncluded(bundler: Bundler, hash: string, seen: () => void): Promise<OpReceipt> {
  const until = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < until) {
    const found = await rpc<OpReceipt | null>(bundler.url, 'eth_getUserOperationReceipt', [hash]);
    if (found) {
      seen();
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`user operation ${hash} not included in time`);
}

/** Base's usual base fee, 0.01 gwei, which each sponsored payment starts from. */
const BASE_FEE_WEI = 10_000_000n;

/** The local chain at Base's fees: ten blocks without tips, then one at Base's base fee. */
async function atBaseFees(chain: JsonRpcProvider): Promise<void> {
  await chain.send('anvil_mine', ['0xa']);
  await chain.send('anvil_setNextBlockBaseFeePerGas', [`0x${BASE_FEE_WEI.toString(16)}`]);
  await chain.send('anvil_mine', ['0x1']);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number) => `${Math.round(x)} ms`;
const spread = (xs: number[]) => `${ms(median(xs))} (${ms(Math.min(...xs))}–${ms(Math.max(...xs))})`;
const fmtGas = (g: bigint) => g.toLocaleString('en-US');
/** What `g` gas costs at BASE_GWEI, in ETH and in dollars at ETH_USD. */
const baseCost = (g: bigint) => {
  const eth = Number(g) * BASE_GWEI * 1e-9;
  return `${eth.toFixed(8)} ETH ≈ $${(eth * ETH_USD).toFixed(4)}`;
};

function report(samples: Sample[], meta: { chromium: string; load: string }): string {
  const of = (k: Kind) => samples.filter((s) => s.kind === k);
  const label: Record<Kind, string> = {
    plain: 'plain key (POGS + ETH), eth_sendTransaction',
    first: 'smart wallet, no ETH, shop pays: first payment (deploys the account)',
    later: 'smart wallet, no ETH, shop pays: later payment',
  };
  const plainOrder = median(of('plain').map((s) => s.order));
  const lines = [
    `### ${new Date().toISOString().slice(0, 10)}, ${meta.chromium}, Node ${process.versions.node}, load average ${meta.load}; \`BENCH_RUNS=${RUNS}\``,
    '',
    'Tap to order (click on Pay → answer of POST /api/orders/create; → the "Order Created" toast), median (min–max):',
    '',
    '| payment | to the order | to the toast | ratio to plain (order, medians) |',
    '|---|---|---|---|',
    ...(['plain', 'first', 'later'] as const).map((k) => {
      const xs = of(k);
      const ratio = k === 'plain' ? '1' : (median(xs.map((s) => s.order)) / plainOrder).toFixed(2);
      return `| ${label[k]} | ${spread(xs.map((s) => s.order))} | ${spread(xs.map((s) => s.toast))} | ${ratio} |`;
    }),
    '',
    'Where the time goes, ms after the click (medians):',
    '',
    '| payment | checkout created | paymaster stub | bundler estimate | final paymaster data | sent to the bundler | included (bundler receipt) | order answered |',
    '|---|---|---|---|---|---|---|---|',
    ...(['plain', 'first', 'later'] as const).map((k) => {
      const xs = of(k);
      const step = (name: string) => {
        const seen = xs.map((s) => s.steps[name]).filter((x): x is number => x !== undefined);
        return seen.length ? ms(median(seen)) : '–';
      };
      return `| ${k} | ${['checkout', 'stub', 'estimate', 'final', 'sent', 'included'].map(step).join(' | ')} | ${ms(median(xs.map((s) => s.order)))} |`;
    }),
    '',
    `Gas per payment (every sample's; one figure when all were equal). Cost on Base at an **assumed** ${BASE_GWEI} gwei L2 fee and an **assumed** $${ETH_USD.toLocaleString('en-US')}/ETH, of the user operation's actualGasUsed (the plain transfer's gasUsed); Base's L1 data fee comes on top and is not measured here:`,
    '',
    `| payment | transaction's gasUsed | user operation's actualGasUsed | actualGasCost on the local chain | at ${BASE_GWEI} gwei on Base (assumed) |`,
    '|---|---|---|---|---|',
    ...(['plain', 'first', 'later'] as const).map((k) => {
      const xs = of(k);
      const range = (gs: bigint[]) => {
        const lo = gs.reduce((a, b) => (b < a ? b : a));
        const hi = gs.reduce((a, b) => (b > a ? b : a));
        return lo === hi ? fmtGas(lo) : `${fmtGas(lo)}–${fmtGas(hi)}`;
      };
      const tx = range(xs.map((s) => s.gas.txGasUsed));
      if (k === 'plain') return `| ${k} | ${tx} | – | – | ${baseCost(xs[0]!.gas.txGasUsed)} (the shopper pays) |`;
      const used = xs.map((s) => s.gas.opGasUsed!);
      const cost = xs.map((s) => s.gas.opGasCost!);
      const gwei = xs.map((s) => Number(s.gas.opGasCost!) / Number(s.gas.opGasUsed!) / 1e9);
      const eth = (x: number) => (x / 1e18).toPrecision(2);
      const costs = cost.map(Number);
      return `| ${k} | ${tx} | ${range(used)} | ${eth(median(costs))} ETH (${eth(Math.min(...costs))}–${eth(Math.max(...costs))}; ${Math.min(...gwei).toPrecision(2)}–${Math.max(...gwei).toPrecision(2)} gwei/gas) | ${baseCost(BigInt(median(used.map(Number))))} (the shop pays) |`;
    }),
    '',
    "What the deposit paid (the user operation's actualGasCost) against what the operation used at its block's base fee (the bundle transaction's gasUsed × the block's base fee: an honest bundler's cost before its tip), each payment starting from Base's fees (0.01 gwei, tip 0.001 gwei). Target: at most 1.2×. Beside it, against the operation's own actualGasUsed at the base fee:",
    '',
    '| payment | base fee of the block | paid by the deposit | ÷ (bundle gasUsed × base fee) | ÷ (actualGasUsed × base fee) | limits the bundler estimated: call / verification / preVerificationGas |',
    '|---|---|---|---|---|---|',
    ...(['first', 'later'] as const).map((k) => {
      const xs = of(k);
      const ratio = (x: Sample, gas: bigint) => Number(x.gas.opGasCost!) / Number(gas * x.gas.baseFee!);
      const fees = [...new Set(xs.map((x) => Number(x.gas.baseFee!) / 1e9))].map((g) => `${g} gwei`).join(', ');
      const paid = xs.map((x) => Number(x.gas.opGasCost!) / 1e18);
      const cell = (rs: number[]) => `${median(rs).toFixed(3)}× (${Math.min(...rs).toFixed(3)}–${Math.max(...rs).toFixed(3)})`;
      const limits = [...new Set(xs.map((x) => x.gas.limits!.map(fmtGas).join(' / ')))].join('; ');
      return `| ${k} | ${fees} | ${median(paid).toPrecision(3)} ETH | ${cell(xs.map((x) => ratio(x, x.gas.txGasUsed)))} | ${cell(xs.map((x) => ratio(x, x.gas.opGasUsed!)))} | ${limits} |`;
    }),
  ];
  return lines.join('\n');
}

async function main() {
  if (!existsSync(join(ROOT, 'dist-server', 'main.js')) || !existsSync(join(ROOT, 'dist', 'index.html'))) {
    throw new Error('No build: run `npm run build` first (npm run bench:sponsored-payment does).');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'pogs-bench-sponsored-'));
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(dataDir, { recursive: true, force: true })];
  const loadAtStart = loadavg()[0]!.toFixed(2);
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  try {
    const shop = await startShop(dataDir);
    cleanups.unshift(shop.stop);
    const chain = new JsonRpcProvider(CHAIN, 8453, { staticNetwork: true });
    cleanups.unshift(() => chain.destroy());
    const config = (await (await fetch(`${BASE_URL}/api/config`)).json()) as PublicConfig;
    if (!config.gasPaidByShop || !config.tokenAddress) throw new Error('the local shop does not pay gas (gasPaidByShop false)');
    const token = new Contract(
      config.tokenAddress,
      ['function transfer(address to, uint256 amount) returns (bool)'],
      await chain.getSigner(DEV_ACCOUNTS[1]),
    );
    const givePogs = async (to: string) => mined(token.getFunction('transfer').send(to, parseUnits('10000', 18)));
    const bundler = await startBundler({ rpcUrl: CHAIN, entryPoint: localEntryPoint() });
    cleanups.unshift(() => bundler.stop());
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    cleanups.unshift(() => browser.close());

    await givePogs(DEV_ACCOUNTS[PLAIN_ACCOUNT]);
    const fresh = async () => {
      const smart = await SmartAccountWallet.create(CHAIN, bundler.url);
      cleanups.push(() => smart.dispose());
      await givePogs(smart.address);
      return smart;
    };
    // The account the 'later' payments come from, deployed by an unmeasured first payment (the warm-up).
    const regular = await fresh();
    await pay(browser, 'plain', chain, bundler);
    await pay(browser, 'first', chain, bundler, regular);
    if (!(await regular.deployed())) throw new Error('the warm-up did not deploy the account');

    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const kind of ['plain', 'first', 'later'] as const) {
        const smart = kind === 'plain' ? undefined : kind === 'first' ? await fresh() : regular;
        if (smart) await atBaseFees(chain);
        const sample = await pay(browser, kind, chain, bundler, smart);
        samples.push(sample);
        console.error(`${i + 1}/${RUNS} ${kind}: order ${ms(sample.order)}, toast ${ms(sample.toast)}`);
      }
    }
    const load = `${loadAtStart} at the start, ${loadavg()[0]!.toFixed(2)} at the end (1-minute)`;
    console.log(report(samples, { chromium: `Chromium ${browser.version().split('.')[0]}`, load }));
  } finally {
    for (const cleanup of cleanups) {
      try {
        await cleanup();
      } catch (error) {
        console.error('cleanup failed:', error);
      }
    }
  }
}

await main();
