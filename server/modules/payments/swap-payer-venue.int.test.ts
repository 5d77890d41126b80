/**
 * Who paid a swap, on a real chain (anvil) with local mode's Uniswap venue (SwapRouter02, the
 * POGS/WETH and POGS/USDC pools): a shopper's wallet swaps ETH or USDC into exactly the checkout's
 * POGS, sent to the store wallet, the way the quote's calls say. The payer recorded is the wallet
 * that called the router, or the smart account of the user operation, never the pool or the
 * bundler; a refund goes to the payer and one to the pool is refused; a swap made through another
 * contract records no payer and its refund is refused.
 */
import { Interface, toQuantity, Wallet, type BaseWallet, type TransactionReceipt } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/errors';
import { attentionItemSchema } from '../../../common/payments-desk';
import { swapQuoteSchema, type SwapQuote, type WalletCall } from '../../../common/swap-pay';
import { receiptOf } from '../../chain/mined';
import { parseCsv } from '../../test/csv';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import { startPayingShop, type PayingShop } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { deploySmartAccounts, TEST_BUNDLER, type SmartAccounts } from '../../test/smart-account';
import { entryPointAt, pack, userOperation } from '../../test/user-operations';
import { useTestChain } from '../../test/use-test-chain';

const testChain = useTestChain();
const STORE = DEV_ACCOUNTS[0]!;
/** Anvil's account #4: ether, and no POGS or USDC. */
const ETH_PAYER = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
/** Dev account #2: demo POGS and 100,000 demo USDC. */
const USDC_PAYER = DEV_ACCOUNTS[2]!;
const ACCOUNT = new Interface([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
]);
const ROUTER = new Interface([
  'function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountIn)',
  'function refundETH() payable',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
]);
const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
]);

describe.each(testDatabaseKinds)('who paid a swap, on %s', (kind) => {
  let shop: PayingShop;
  let accounts: SmartAccounts;
  const provider = () => testChain.provider;
  const lower = (a: string) => a.toLowerCase();

  beforeAll(async () => {
    accounts = await deploySmartAccounts(testChain.provider, DEV_ACCOUNTS[0]!);
    shop = await startPayingShop(kind, testChain, { swapVenue: true });
  }, 120_000);
  afterAll(async () => {
    await shop?.h.close();
  });

  const facts = () => shop.h.swap!;
  const balanceOf = async (token: string, owner: string) =>
    BigInt(
      ERC20.decodeFunctionResult(
        'balanceOf',
        await provider().call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }),
      )[0],
    );
  const asAdmin = (path: string, init: RequestInit = {}) =>
    shop.h.api(path, { ...init, headers: { cookie: shop.admin, 'content-type': 'application/json', ...init.headers } });

  /** A checkout of the shopper's, and the quote of its swap from `payWith`. */
  async function quoted(payWith: 'ETH' | 'USDC'): Promise<{ amountWei: bigint; quote: SwapQuote }> {
    const s = new Shopper(shop.h);
    const c = await shop.pay.checkout(s, shop.unlimited.id, null);
    const res = await s.post(`/api/checkout/${c.id}/swap-quote`, { payWith });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    return { amountWei: BigInt(c.amountWei), quote: swapQuoteSchema.parse(body) };
  }

  /** Sends the wallet's calls in order from an EOA, with half as much gas again as estimated (the pools' observations). */
  async function sendCalls(from: string, calls: WalletCall[]): Promise<TransactionReceipt[]> {
    const signer = await provider().getSigner(from);
    const receipts: TransactionReceipt[] = [];
    for (const call of calls) {
      const tx = { to: call.to, data: call.data, value: BigInt(call.value) };
      const gasLimit = ((await provider().estimateGas({ ...tx, from })) * 3n) / 2n;
      const sent = await signer.sendTransaction({ ...tx, gasLimit });
      receipts.push(await receiptOf(provider(), sent.hash));
    }
    return receipts;
  }

  /** The calls as one user operation of `account` (owned by `owner`), submitted by the bundler, the account paying its gas. */
  async function sendAsOperation(owner: BaseWallet, account: string, calls: WalletCall[]): Promise<TransactionReceipt> {
    const entryPoint = entryPointAt(accounts.entryPoint, await provider().getSigner(TEST_BUNDLER));
    const callData = ACCOUNT.encodeFunctionData('executeBatch', [calls.map((c) => [c.to, BigInt(c.value), c.data])]);
    // Room for a swap, and for the account paying the EntryPoint its gas (no paymaster here).
    const op = {
      ...(await userOperation(entryPoint, account, callData)),
      callGasLimit: toQuantity(900_000n),
      verificationGasLimit: toQuantity(200_000n),
    };
    const packed = pack(op, { paymaster: '0x', paymasterVerificationGasLimit: '0', paymasterPostOpGasLimit: '0', paymasterData: '0x' });
    packed.paymasterAndData = '0x';
    packed.signature = owner.signingKey.sign(await entryPoint.getFunction('getUserOpHash')(packed)).serialized;
    const handleOps = entryPoint.getFunction('handleOps');
    const gasLimit = ((await handleOps.estimateGas([packed], TEST_BUNDLER)) * 3n) / 2n;
    const sent = await handleOps([packed], TEST_BUNDLER, { gasLimit });
    return (await receiptOf(provider(), sent.hash))!;
  }

  /** The transfer to the store of `txHash`, once the watcher has seen it. */
  async function recorded(txHash: string) {
    await shop.h.payments!.watcher.tick();
    const row = await shop.pay.transferRow(txHash);
    expect(row, `transfer of ${txHash}`).toBeDefined();
    return row!;
  }

  async function refund(transferId: unknown, to: string, amount: string, wei: bigint) {
    const sent = await shop.pay.send(STORE, { value: wei, to });
    const res = await asAdmin(`/api/admin/payments/${String(transferId)}/refund`, {
      method: 'POST',
      body: JSON.stringify({ transactionHash: sent, amount }),
    });
    return { status: res.status, body: (await res.json()) as { code?: string } };
  }

  it('ETH from a wallet: the caller of the router paid what the router wrapped; the order is theirs; a refund to the pool is refused, to the payer recorded', async () => {
    const { amountWei, quote } = await quoted('ETH');
    const before = await provider().getBalance(ETH_PAYER);
    const [receipt] = await sendCalls(ETH_PAYER, quote.calls);
    expect(receipt!.status).toBe(1);
    const spent = before - (await provider().getBalance(ETH_PAYER)) - receipt!.gasUsed * receipt!.gasPrice;
    const row = await recorded(receipt!.hash);
    // The POGS came from the POGS/WETH pool: never taken as the payer.
    expect(facts().pools).toContain(row.from_address);
    expect(row).toMatchObject({ payer_address: lower(ETH_PAYER), paid_with: 'ETH', status: 'matched' });
    expect(BigInt(String(row.amount_in))).toBe(spent);
    expect(await shop.pay.ordersFor(receipt!.hash)).toMatchObject([{ customer_wallet: lower(ETH_PAYER) }]);

    const item = attentionItemSchema.parse(await (await asAdmin(`/api/admin/payments/${String(row.id)}`)).json());
    expect(item).toMatchObject({ paidWith: { coin: 'ETH', amountIn: spent.toString(), payer: lower(ETH_PAYER) } });
    expect(lower(item.refundTo!)).toBe(lower(ETH_PAYER));

    const toPool = await refund(row.id, String(row.from_address), '1', 10n ** 18n);
    expect(toPool.body.code).toBe(ErrorCode.refundWrongRecipient);
    const toPayer = await refund(row.id, ETH_PAYER, '1', 10n ** 18n);
    expect(toPayer.status, JSON.stringify(toPayer.body)).toBe(200);
    expect(await shop.h.database.db('refunds').where({ transfer_id: row.id })).toMatchObject([{ to_address: lower(ETH_PAYER) }]);
    expect(amountWei).toBe(BigInt(row.value_wei as string));
  });

  /** A swap of ETH into `amountOut` of POGS for the store, by `from`, written out here (payments does not reach into the swaps module). */
  async function ownSwap(from: string, amountOut: bigint): Promise<TransactionReceipt> {
    const route = shop.h.config.swap.routes.ETH!;
    const { tokenAddress: pogs, storeWallet: store } = shop.h.payments!.target;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 600);
    const amountInMax = 10n ** 17n;
    const swapOut = ROUTER.encodeFunctionData('exactOutputSingle', [
      {
        tokenIn: route.tokens[0],
        tokenOut: pogs,
        fee: route.fees[0],
        recipient: store,
        amountOut,
        amountInMaximum: amountInMax,
        sqrtPriceLimitX96: 0n,
      },
    ]);
    const data = ROUTER.encodeFunctionData('multicall', [deadline, [swapOut, ROUTER.encodeFunctionData('refundETH', [])]]);
    const [receipt] = await sendCalls(from, [{ to: shop.h.config.swap.router, data, value: amountInMax.toString() }]);
    return receipt!;
  }

  it("a swap of an amount no checkout asks for stays unmatched, and the desk's export names its payer as the sender, not the pool", async () => {
    const receipt = [await ownSwap(ETH_PAYER, 7n * 10n ** 18n + 123n)];
    const row = await recorded(receipt[0]!.hash);
    expect(row).toMatchObject({ status: 'unmatched', payer_address: lower(ETH_PAYER), paid_with: 'ETH' });
    expect(facts().pools).toContain(row.from_address);

    const day = new Date().toISOString().slice(0, 10);
    const res = await asAdmin(`/api/admin/payments/export.csv?from=${day}&to=${day}`);
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(await res.text());
    const line = rows.find((r) => r[header!.indexOf('tx_hash')] === lower(receipt[0]!.hash));
    expect(line, 'the transfer in the export').toBeDefined();
    expect(line![header!.indexOf('sender')]).toBe(lower(ETH_PAYER));
  });

  it('a shopper signed in as the payer: a swap of part of the amount counts for their checkout, as a transfer from their wallet would', async () => {
    const s = new Shopper(shop.h);
    await s.signIn(provider(), ETH_PAYER);
    const c = await shop.pay.checkout(s, shop.unlimited.id, ETH_PAYER);
    const half = BigInt(c.amountWei) / 2n;
    const receipt = await ownSwap(ETH_PAYER, half);
    const row = await recorded(receipt.hash);
    expect(facts().pools).toContain(row.from_address);
    expect(row).toMatchObject({ payer_address: lower(ETH_PAYER), status: 'underpaid' });
    expect(await shop.pay.checkoutOf(s, c.id)).toMatchObject({ status: 'underpaid' });
    await s.request('/api/auth/logout', { method: 'POST' });
  });

  it('the same swap sent before signing in: kept unmatched, then counted for the checkout once the shopper proves the payer wallet', async () => {
    const s = new Shopper(shop.h);
    const c = await shop.pay.checkout(s, shop.unlimited.id, ETH_PAYER);
    const receipt = await ownSwap(ETH_PAYER, BigInt(c.amountWei) / 2n);
    expect(await recorded(receipt.hash)).toMatchObject({ payer_address: lower(ETH_PAYER), status: 'unmatched' });
    await s.signIn(provider(), ETH_PAYER);
    expect(await shop.pay.transferRow(receipt.hash)).toMatchObject({ status: 'underpaid' });
    expect(await shop.pay.checkoutOf(s, c.id)).toMatchObject({ status: 'underpaid' });
    await s.request('/api/auth/logout', { method: 'POST' });
  });

  it('USDC from a wallet: the caller paid the USDC it sent', async () => {
    const { quote } = await quoted('USDC');
    const before = await balanceOf(facts().usdc, USDC_PAYER);
    const receipts = await sendCalls(USDC_PAYER, quote.calls);
    const swapped = receipts.at(-1)!;
    const row = await recorded(swapped.hash);
    expect(facts().pools).toContain(row.from_address);
    expect(row).toMatchObject({ payer_address: lower(USDC_PAYER), paid_with: 'USDC' });
    expect(BigInt(String(row.amount_in))).toBe(before - (await balanceOf(facts().usdc, USDC_PAYER)));
  });

  it("a smart account's user operation: the account paid, never the bundler; a refund goes to the account", async () => {
    const owner = Wallet.createRandom();
    const account = await accounts.deploy(owner.address);
    await provider().send('anvil_setBalance', [account, toQuantity(10n ** 19n)]);
    const { quote } = await quoted('ETH');
    const receipt = await sendAsOperation(owner, account, quote.calls);
    expect(receipt.status).toBe(1);
    expect(lower(receipt.from)).toBe(lower(TEST_BUNDLER));
    const row = await recorded(receipt.hash);
    expect(row).toMatchObject({ payer_address: lower(account), paid_with: 'ETH' });
    expect(row.payer_address).not.toBe(lower(TEST_BUNDLER));
    const toPayer = await refund(row.id, account, '2', 2n * 10n ** 18n);
    expect(toPayer.status, JSON.stringify(toPayer.body)).toBe(200);
  });

  it("USDC by a smart account's user operation: the account paid the USDC it sent", async () => {
    const owner = Wallet.createRandom();
    const account = await accounts.deploy(owner.address);
    await provider().send('anvil_setBalance', [account, toQuantity(10n ** 19n)]);
    await shop.pay.send(USDC_PAYER, { value: 1_000_000_000n, to: account, tokenAddress: facts().usdc });
    const { quote } = await quoted('USDC');
    const receipt = await sendAsOperation(owner, account, quote.calls);
    const row = await recorded(receipt.hash);
    expect(row).toMatchObject({ payer_address: lower(account), paid_with: 'USDC' });
    expect(BigInt(String(row.amount_in))).toBe(1_000_000_000n - (await balanceOf(facts().usdc, account)));
  });

  it('a swap made through another contract records no payer: its refund is refused, to the pool or anyone', async () => {
    const owner = Wallet.createRandom();
    // The owner calls the account directly (not through the EntryPoint): the router's caller is a contract, whose payer the chain does not prove.
    await provider().send('anvil_setBalance', [owner.address, toQuantity(10n ** 19n)]);
    const account = await accounts.deploy(owner.address);
    await provider().send('anvil_setBalance', [account, toQuantity(10n ** 19n)]);
    const { quote } = await quoted('ETH');
    const call = quote.calls[0]!;
    const signer = owner.connect(provider());
    const tx = { to: account, data: ACCOUNT.encodeFunctionData('execute', [call.to, BigInt(call.value), call.data]) };
    const gasLimit = ((await provider().estimateGas({ ...tx, from: owner.address })) * 3n) / 2n;
    const sent = await signer.sendTransaction({ ...tx, gasLimit });
    const receipt = (await receiptOf(provider(), sent.hash))!;
    const row = await recorded(receipt.hash);
    expect(row).toMatchObject({ payer_address: null, paid_with: 'swap', amount_in: null });
    const item = attentionItemSchema.parse(await (await asAdmin(`/api/admin/payments/${String(row.id)}`)).json());
    expect(item).toMatchObject({ paidWith: { coin: 'swap', payer: null }, refundTo: null });
    const prepared = await asAdmin(`/api/admin/payments/${String(row.id)}/prepare-refund`, {
      method: 'POST',
      body: JSON.stringify({ amount: '1' }),
    });
    expect(prepared.status).toBe(409);
    expect(((await prepared.json()) as { code: string }).code).toBe(ErrorCode.refundPayerUnknown);
    for (const to of [String(row.from_address), account, owner.address]) {
      expect((await refund(row.id, to, '1', 10n ** 18n)).body.code).toBe(ErrorCode.refundPayerUnknown);
    }
  });
});
