/**
 * Sign-in for smart-wallet shoppers, on a real chain: a smart account (ERC-4337, ERC-1271) pays
 * for an order and signs in once deployed (ERC-1271) and before (ERC-6492), and sees exactly its
 * own orders; strangers' signatures, wrappers and look-alike accounts get nothing; a chain that
 * does not answer stops smart accounts' sign-in with a "try again", never plain keys'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interface } from 'ethers';
import { z } from 'zod';
import { authSessionSchema, checkoutSchema, orderSchema, siweNonceSchema, type Order } from '../../../common/api';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { sendTokenTransfer } from '../../test/chain';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { startPayingShop } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { deploySmartAccounts, type SmartAccounts } from '../../test/smart-account';
import { useTestChain } from '../../test/use-test-chain';
import { mined } from '../../chain/mined';

const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);
const ordersListSchema = z.array(orderSchema);
/** The owner of the smart accounts, and a stranger with keys of their own. */
const OWNER = DEV_ACCOUNTS[2]!;
const STRANGER = DEV_ACCOUNTS[3]!;
const testChain = useTestChain();

describe.each(testDatabaseKinds)('smart-wallet sign-in on %s', (kind) => {
  let h: Harness;
  let accounts: SmartAccounts;
  /** The owner's deployed account, which bought once; and their account not deployed yet (salt 1). */
  let deployed: string;
  let undeployed: string;
  let order: Order;
  let variantId: string;
  /** Sends `value` of the token from smart account `account` to `to` (its owner funds it first); answers the tx hash. */
  async function payFrom(account: string, c: { tokenAddress: string; storeWallet: string }, value: bigint): Promise<string> {
    await mined(sendTokenTransfer(testChain.provider, OWNER, { token: c.tokenAddress, to: account, value }));
    await accounts.execute(OWNER, account, { to: c.tokenAddress, data: ERC20.encodeFunctionData('transfer', [c.storeWallet, value]) });
    return (await testChain.provider.getLogs({ address: c.tokenAddress, fromBlock: 'latest', toBlock: 'latest' }))[0]!.transactionHash;
  }

  beforeAll(async () => {
    const shop = await startPayingShop(kind, testChain);
    h = shop.h;
    variantId = shop.unlimited.id;
    accounts = await deploySmartAccounts(testChain.provider, DEV_ACCOUNTS[0]);
    deployed = await accounts.deploy(OWNER);
    undeployed = await accounts.addressOf(OWNER, 1n);
    // The deployed account holds POGS (its owner sends some) and pays from itself.
    const s = new Shopper(h);
    await s.add({ variantId, quantity: 1 });
    const c = checkoutSchema.parse(await (await s.post('/api/checkout', { customerWallet: deployed })).json());
    const paid = await payFrom(deployed, c, BigInt(c.amountWei));
    const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: paid, customerWallet: deployed });
    expect(res.status).toBe(201);
    order = orderSchema.parse(await res.json());
  });
  afterAll(async () => {
    await h?.close();
  });

  const messageFor = async (s: Shopper, address: string) => {
    const res = await s.request(`/api/auth/nonce?address=${address}`);
    expect(res.status).toBe(200);
    return siweNonceSchema.parse(await res.json()).message;
  };
  const verify = (s: Shopper, message: string, signature: string) => s.post('/api/auth/verify', { message, signature });
  const expectSignedIn = async (res: Response, address: string) => {
    expect(res.status).toBe(200);
    expect(authSessionSchema.parse(await res.json()).address).toBe(address.toLowerCase());
  };
  const expectRefused = async (res: Response) => {
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('invalid-signature');
  };

  it('signs in a deployed smart account by its owner’s signature (ERC-1271), which then sees exactly its own orders', async () => {
    expect(await accounts.deployed(deployed)).toBe(true);
    const s = new Shopper(h);
    const message = await messageFor(s, deployed);
    await expectSignedIn(await verify(s, message, await accounts.sign(OWNER, message)), deployed);
    const mine = ordersListSchema.parse(await (await s.request(`/api/orders?wallet=${deployed}`)).json());
    expect(mine.map((o) => o.id)).toEqual([order.id]);
    expect((await s.request(`/api/orders/${order.id}`)).status).toBe(200);
    // The owner's own key is another wallet: it may not read the account's orders.
    const ownerSession = new Shopper(h);
    await ownerSession.signIn(testChain.provider, OWNER);
    expect((await ownerSession.request(`/api/orders?wallet=${deployed}`)).status).toBe(403);
    expect((await ownerSession.request(`/api/orders/${order.id}`)).status).not.toBe(200);
  });

  it('signs in a smart account not deployed yet by its ERC-6492 signature, and leaves it undeployed', async () => {
    expect(await accounts.deployed(undeployed)).toBe(false);
    const s = new Shopper(h);
    const message = await messageFor(s, undeployed);
    const signature = accounts.wrap6492(OWNER, await accounts.sign(OWNER, message), 1n);
    await expectSignedIn(await verify(s, message, signature), undeployed);
    expect(await accounts.deployed(undeployed)).toBe(false);
    expect(ordersListSchema.parse(await (await s.request(`/api/orders?wallet=${undeployed}`)).json())).toEqual([]);
  });

  it('counts a wrong amount a smart account sent towards its checkout once it signs in (a proven sender)', async () => {
    const s = new Shopper(h);
    await s.add({ variantId, quantity: 1 });
    const c = checkoutSchema.parse(await (await s.post('/api/checkout', { customerWallet: deployed })).json());
    const hash = (await payFrom(deployed, c, BigInt(c.amountWei) - 10n ** 18n)).toLowerCase();
    const transfer = () => h.database.db('chain_transfers').where({ tx_hash: hash }).first();
    const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: hash, customerWallet: deployed });
    expect((await res.json()).code).toBe('payment-unmatched');
    expect(await transfer()).toMatchObject({ status: 'unmatched', intent_id: null, from_address: deployed.toLowerCase() });
    const message = await messageFor(s, deployed);
    await expectSignedIn(await verify(s, message, await accounts.sign(OWNER, message)), deployed);
    expect(await transfer()).toMatchObject({ status: 'underpaid', intent_id: c.id });
  });

  it('refuses a stranger: their key for a smart account, a bare signature for an undeployed one, a wrapper that makes their own account, garbage', async () => {
    // A stranger's key signing for the owner's deployed account.
    let s = new Shopper(h);
    let message = await messageFor(s, deployed);
    await expectRefused(await verify(s, message, await accounts.sign(STRANGER, message)));
    // The owner's signature for the undeployed account, without the wrapper that would make it: no code answers.
    s = new Shopper(h);
    message = await messageFor(s, undeployed);
    await expectRefused(await verify(s, message, await accounts.sign(OWNER, message)));
    // A wrapper whose factory call deploys the stranger's own account (another address), signed by the stranger.
    s = new Shopper(h);
    message = await messageFor(s, undeployed);
    await expectRefused(await verify(s, message, accounts.wrap6492(STRANGER, await accounts.sign(STRANGER, message), 1n)));
    // The stranger's wrapped signature presented for the owner's deployed account.
    s = new Shopper(h);
    message = await messageFor(s, deployed);
    await expectRefused(await verify(s, message, accounts.wrap6492(STRANGER, await accounts.sign(STRANGER, message))));
    // Hex that is no signature at all, plain and with the ERC-6492 ending.
    s = new Shopper(h);
    message = await messageFor(s, undeployed);
    await expectRefused(await verify(s, message, `0x${'ab'.repeat(200)}`));
    s = new Shopper(h);
    message = await messageFor(s, undeployed);
    await expectRefused(await verify(s, message, `0x${'ab'.repeat(100)}${'6492'.repeat(16)}`));
    expect(await accounts.deployed(await accounts.addressOf(STRANGER, 1n))).toBe(false);
  });

  it('answers "try again" to a smart account while the chain does not answer, and still signs in a plain key', async () => {
    const down = await startHarness(kind, { chain: testChain.chain, chainRpc: { rpcUrl: 'http://127.0.0.1:9', timeoutMs: 1_000 } });
    try {
      let s = new Shopper(down);
      let message = await messageFor(s, undeployed);
      const res = await verify(s, message, accounts.wrap6492(OWNER, await accounts.sign(OWNER, message), 1n));
      expect(res.status).toBe(503);
      expect((await res.json()).code).toBe('chain-unavailable');
      s = new Shopper(down);
      message = await messageFor(s, OWNER);
      await expectSignedIn(await verify(s, message, await accounts.sign(OWNER, message)), OWNER);
    } finally {
      await down.close();
    }
  });
});
