/**
 * A stranger who also runs the bundle: on anvil at Base's fees (base fee 0.01 gwei, tip 0.001
 * gwei), with the real EntryPoint v0.8 and the shop's own ShopPaymaster, the attacker builds its
 * own operations and submits them with handleOps itself, as its own beneficiary (anyone may). For
 * each way to make the shop's deposit pay for something other than an honest payment, or pay the
 * attacker, the test asserts that the deposit paid nothing for an operation that did not pay the
 * store, and that the attacker's ETH (its key's and its accounts') did not grow. The one way left
 * to waste a sponsorship (moving the POGS away inside the same bundle) costs one operation, which
 * the shop sees, counts and answers by refusing that account from then on.
 */
import {
  concat,
  Contract,
  ContractFactory,
  getAddress,
  Interface,
  parseEther,
  toQuantity,
  Wallet,
  ZeroHash,
  type BaseWallet,
  type Contract as ContractType,
  type HDNodeWallet,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSchema, orderSchema, paymasterOfferSchema, type Checkout } from '../../../common/api';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import attackerArtifact from '../../test/contracts/attacker.json';
import { sendTokenTransfer } from '../../test/chain';
import { testDatabaseKinds } from '../../test/databases';
import type { Harness } from '../../test/harness';
import { startPayingShop } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { deploySponsorStack, ownPaymasterSettings, TEST_BUNDLER, type PaymasterAnswer, type SmartAccounts } from '../../test/smart-account';
import { pack, transferCall, userOperation } from '../../test/user-operations';
import { useTestChain } from '../../test/use-test-chain';
import { observeGauges, registry } from '../../lib/metrics';
import { ServerSecret } from '../../lib/server-secret';
import { gaugeSources } from '../../ops/observability';
import { paymasterData } from './sign';
import { PAYMASTER_GAS } from './sponsor';
import { ticketFor } from './ticket';
import type { UserOperation } from './user-operation';
import { mined, receiptOf } from '../../chain/mined';

const testChain = useTestChain();
const signerKey = Wallet.createRandom().privateKey;
/** Base's usual base fee: 0.01 gwei. */
const BASE_FEE = 10_000_000n;
const ATTACKER_FACTORY = new Interface(attackerArtifact.contracts.AttackerFactory.abi);
const ACCOUNT = new Interface(['function execute(address target, uint256 value, bytes data)']);
const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

describe.each(testDatabaseKinds)('a stranger who also runs the bundle, on %s', (kind) => {
  let h: Harness;
  let accounts: SmartAccounts;
  let bundler: ContractType;
  let paymaster: string;
  let variantId: string;
  let attacker: HDNodeWallet;
  let attackerFactory: string;
  let token: string;
  let store: string;
  /** The attacker's own key, owning its smart accounts; and a shopper's. */
  const attackerOwner = Wallet.createRandom();
  const shopperOwner = Wallet.createRandom();
  let salt = 100n;

  beforeAll(async () => {
    ({ accounts, entryPoint: bundler, paymaster } = await deploySponsorStack(testChain.provider, new Wallet(signerKey).address));
    const shop = await startPayingShop(kind, testChain, {
      env: {
        ...ownPaymasterSettings({ accounts, paymaster }, signerKey),
        // Room for this file's other sponsorships; the last test spends the rest.
        PAYMASTER_DAILY_BUDGET_ETH: '0.0001',
      },
    });
    h = shop.h;
    variantId = shop.unlimited.id;
    ({ tokenAddress: token, storeWallet: store } = h.payments!.target);
    attacker = Wallet.createRandom().connect(testChain.provider);
    await testChain.provider.send('anvil_setBalance', [attacker.address, toQuantity(parseEther('1'))]);
    const factory = await new ContractFactory(
      attackerArtifact.contracts.AttackerFactory.abi,
      attackerArtifact.contracts.AttackerFactory.bytecode,
      attacker,
    ).deploy(accounts.entryPoint);
    attackerFactory = await factory.getAddress();
  });
  afterAll(async () => {
    await h?.close();
  });

  // --- the chain, as Base prices it -------------------------------------------------------------

  /** Blocks at Base's base fee, with no tips in the recent ones (the network's tip is then Base's least, 0.001 gwei). */
  async function atBaseFees() {
    await testChain.provider.send('anvil_mine', ['0xa']);
    await testChain.provider.send('anvil_setNextBlockBaseFeePerGas', [toQuantity(BASE_FEE)]);
    await testChain.provider.send('anvil_mine', ['0x1']);
  }
  const deposit = async (): Promise<bigint> => bundler.getFunction('balanceOf')(paymaster);
  /** The attacker's ETH: its key's and its accounts'. */
  const wealth = async (...own: string[]) => {
    let sum = await testChain.provider.getBalance(attacker.address);
    for (const a of own) sum += await testChain.provider.getBalance(a);
    return sum;
  };

  /**
   * The attacker submits `ops` with handleOps itself, as its own beneficiary, paying no tip (the
   * cheapest it can); the transaction is mined even when it reverts. Answers its receipt.
   */
  async function attackerBundles(ops: unknown[]) {
    await testChain.provider.send('anvil_setNextBlockBaseFeePerGas', [toQuantity(BASE_FEE)]);
    const tx = await attacker.sendTransaction({
      to: accounts.entryPoint,
      data: bundler.interface.encodeFunctionData('handleOps', [ops, attacker.address]),
      gasLimit: 3_000_000n,
      maxFeePerGas: BASE_FEE * 2n,
      maxPriorityFeePerGas: 0n,
    });
    return (await receiptOf(testChain.provider, tx.hash))!;
  }

  // --- the shop, as a shopper and a stranger ask it ----------------------------------------------

  /** A checkout for `wallet` (its POGS sent by a funded dev account unless `funded` is false), and what the shop offers its wallet. */
  async function checkoutFor(wallet: string, funded = true) {
    const s = new Shopper(h);
    await s.add({ variantId, quantity: 1 });
    const c: Checkout = checkoutSchema.parse(await (await s.post('/api/checkout', { customerWallet: wallet })).json());
    if (funded) await mined(sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token, to: wallet, value: BigInt(c.amountWei) }));
    await atBaseFees();
    const offer = paymasterOfferSchema.parse(await (await s.request(`/api/checkout/${c.id}/paymaster`)).json());
    return { s, c, offer, ticket: 'context' in offer ? offer.context.ticket : null };
  }
  const ask = async (method: string, op: UserOperation, ticket: string | null): Promise<PaymasterAnswer> => {
    const res = await fetch(`${h.baseUrl}/api/paymaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [op, accounts.entryPoint, '0x2105', { ticket }] }),
    });
    return res.json();
  };
  const refusal = async (op: UserOperation, ticket: string | null) => {
    const answer = await ask('pm_getPaymasterData', op, ticket);
    expect(answer.result).toBeUndefined();
    return answer.error!.data!.reason;
  };
  const paying = (c: Checkout) => transferCall(token, store, BigInt(c.amountWei));
  /**
   * The ticket the shop would give checkout `c`'s session had it offered one: the offer is only
   * the browser's, and a wallet asks the service whatever it was told, so the service's own checks
   * are tried with a ticket too.
   */
  async function ticketOf(c: Checkout): Promise<string> {
    return ticketFor(await new ServerSecret(h.database.db).key('paymaster-ticket'), {
      checkoutId: c.id,
      wallet: c.customerWallet!.toLowerCase(),
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    });
  }
  /** `op` with the paymaster's fields, signed by `owner` over the EntryPoint's hash. */
  async function signed(op: UserOperation, fields: NonNullable<PaymasterAnswer['result']>, owner: BaseWallet) {
    const packed = pack(op, fields);
    packed.signature = owner.signingKey.sign(await bundler.getFunction('getUserOpHash')(packed)).serialized;
    return packed;
  }
  /** A shopper's honest sponsored payment, signed by the shop and not sent yet: its checkout, operation and the shop's answer. */
  async function honestSponsorship() {
    const account = await accounts.deploy(shopperOwner.address, ++salt);
    const { s, c, ticket } = await checkoutFor(account);
    const op = await userOperation(bundler, account, paying(c));
    const answer = await ask('pm_getPaymasterData', op, ticket);
    expect(answer.error).toBeUndefined();
    return { s, c, account, ticket: ticket!, op, fields: answer.result!, packed: await signed(op, answer.result!, shopperOwner) };
  }
  /** Submits the attacker's `ops` and asserts the attack won nothing: the deposit paid nothing and the attacker's ETH did not grow. */
  async function expectNothingWon(ops: unknown[], own: string[] = []) {
    const [depositBefore, wealthBefore] = [await deposit(), await wealth(...own)];
    const receipt = await attackerBundles(ops);
    expect(receipt.status, 'the EntryPoint refuses the bundle').toBe(0);
    expect(await deposit()).toBe(depositBefore);
    expect(await wealth(...own)).toBeLessThan(wealthBefore);
  }

  // --- the attacks -------------------------------------------------------------------------------

  it('refuses an account made by a factory it does not know, even one whose execute looks like the payment', async () => {
    const honest = await honestSponsorship();
    const account = getAddress(
      await new Contract(attackerFactory, ATTACKER_FACTORY, testChain.provider).getFunction('getAddress')(
        attackerOwner.address,
        1n,
        300_000n,
      ),
    );
    const { c, ticket } = await checkoutFor(account);
    expect(ticket, 'an account not on chain yet is judged by its first operation').not.toBeNull();
    await atBaseFees();
    const op = await userOperation(bundler, account, paying(c), {
      factory: attackerFactory,
      factoryData: ATTACKER_FACTORY.encodeFunctionData('createAccount', [attackerOwner.address, 1n, 300_000n]),
    });
    expect((await ask('pm_getPaymasterStubData', op, ticket)).error?.data?.reason).toBe('unknown-account');
    expect(await refusal(op, ticket)).toBe('unknown-account');
    // Without the shop's signature for it, the operation goes nowhere: another payment's does not fit.
    await expectNothingWon([await signed(op, honest.fields, attackerOwner)]);
  });

  it('refuses a deployed account whose code it does not know, and an EIP-7702 account delegating to one', async () => {
    const honest = await honestSponsorship();
    const factory = new Contract(attackerFactory, ATTACKER_FACTORY, attacker);
    await mined(factory.getFunction('createAccount')(attackerOwner.address, 2n, 0n));
    const deployed = getAddress(await factory.getFunction('getAddress')(attackerOwner.address, 2n, 0n));
    const first = await checkoutFor(deployed);
    expect(first.offer).toMatchObject({ unavailable: { reason: 'unknown-account' } });
    // The offer is the browser's; the wallet asks the service whatever it was told: refused there too.
    const forged = await checkoutFor(deployed);
    const op = await userOperation(bundler, deployed, paying(forged.c));
    expect(await refusal(op, await ticketOf(forged.c))).toBe('unknown-account');
    await expectNothingWon([await signed(op, honest.fields, attackerOwner)], [deployed]);

    // An EOA delegating (EIP-7702) to the attacker's account code.
    const eoa = Wallet.createRandom();
    await testChain.provider.send('anvil_setCode', [eoa.address, concat(['0xef0100', deployed])]);
    const delegated = await checkoutFor(eoa.address);
    expect(delegated.offer).toMatchObject({ unavailable: { reason: 'unknown-account' } });
  });

  it('sponsors an EIP-7702 account delegating to Simple7702Account: it pays with no ETH', async () => {
    const eoa = Wallet.createRandom();
    await testChain.provider.send('anvil_setCode', [eoa.address, concat(['0xef0100', accounts.delegate])]);
    const { s, c, ticket } = await checkoutFor(eoa.address);
    expect(ticket).not.toBeNull();
    await atBaseFees();
    const op = await userOperation(bundler, eoa.address, paying(c));
    const answer = await ask('pm_getPaymasterData', op, ticket);
    expect(answer.error).toBeUndefined();
    const packed = pack(op, answer.result!);
    // Simple7702Account checks the EOA's own signature of the EntryPoint's hash.
    packed.signature = eoa.signingKey.sign(await bundler.getFunction('getUserOpHash')(packed)).serialized;
    const receipt = await mined(bundler.getFunction('handleOps')([packed], TEST_BUNDLER));
    expect(receipt.status).toBe(1);
    expect(await testChain.provider.getBalance(eoa.address)).toBe(0n);
    const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: receipt.hash, customerWallet: eoa.address });
    expect(orderSchema.parse(await res.json())).toMatchObject({ status: 'paid' });
  });

  it('refuses fees and gas over what the network and the known wallets need, so a bundler cannot be paid from them', async () => {
    const honest = await honestSponsorship();
    const account = await accounts.deploy(attackerOwner.address, 3n);
    const { c, ticket } = await checkoutFor(account);
    const op = await userOperation(bundler, account, paying(c));
    const inflated: Array<[string, Partial<UserOperation>]> = [
      ['fee-too-high', { maxFeePerGas: toQuantity(BASE_FEE * 100n) }],
      ['fee-too-high', { maxPriorityFeePerGas: toQuantity(BigInt(op.maxPriorityFeePerGas) * 10n) }],
      ['gas-too-high', { preVerificationGas: toQuantity(1_000_000n) }],
      ['gas-too-high', { callGasLimit: toQuantity(1_000_000n) }],
      ['gas-too-high', { verificationGasLimit: toQuantity(1_500_000n) }],
    ];
    for (const [reason, change] of inflated) {
      expect(await refusal({ ...op, ...change }, ticket), JSON.stringify(change)).toBe(reason);
    }
    await expectNothingWon([await signed({ ...op, ...inflated[0]![1] }, honest.fields, attackerOwner)], [account]);
    expect(await h.database.db('paymaster_sponsorships').where({ checkout_id: c.id })).toHaveLength(0);

    // The honest payment, bundled by the attacker: what the deposit pays it is an honest bundler's cost.
    const [depositBefore, wealthBefore] = [await deposit(), await wealth()];
    const receipt = await attackerBundles([honest.packed]);
    expect(receipt.status).toBe(1);
    const paid = depositBefore - (await deposit());
    const honestCost = receipt.gasUsed * (BASE_FEE + BigInt(honest.op.maxPriorityFeePerGas));
    // What an honest bundler pays for the bundle, at the network's tip, and ~10 % more: the bundler's
    // own margin on preVerificationGas, which the shop allows (wallets send what their bundler estimates).
    expect(Number(paid) / Number(honestCost)).toBeLessThan(1.15);
    // What the attacker keeps by paying no tip at all: the tip it skipped and that margin, no more.
    expect(Number((await wealth()) - wealthBefore) / Number(honestCost)).toBeLessThan(0.25);
  });

  it('sponsors one operation at a time per account, on its main nonce sequence only', async () => {
    const honest = await honestSponsorship();
    expect(await refusal({ ...honest.op, nonce: toQuantity((1n << 64n) + BigInt(honest.op.nonce)) }, honest.ticket)).toBe('nonce-key');
    // The same checkout asked again (its shopper closed the wallet and pressed Pay again): offered,
    // and the same operation signed again.
    const retried = paymasterOfferSchema.parse(await (await honest.s.request(`/api/checkout/${honest.c.id}/paymaster`)).json());
    expect(retried).toMatchObject({ url: expect.any(String) });
    const retriedTicket = 'context' in retried ? retried.context.ticket : null;
    expect((await ask('pm_getPaymasterData', honest.op, retriedTicket)).result?.paymaster).toBe(paymaster);
    // A second checkout of the same account while the first sponsorship can still land.
    const second = await checkoutFor(honest.account);
    expect(second.offer).toMatchObject({ unavailable: { reason: 'sponsorship-pending' } });
    const op = await userOperation(bundler, honest.account, paying(second.c));
    expect(await refusal(op, await ticketOf(second.c))).toBe('sponsorship-pending');
    // Once the first has run, the account's next payment is sponsored.
    expect((await mined(bundler.getFunction('handleOps')([honest.packed], TEST_BUNDLER))).status).toBe(1);
    const third = await checkoutFor(honest.account);
    expect(third.ticket).not.toBeNull();
  });

  it('sponsors only the checkout’s wallet: a stolen ticket is worth nothing, and does not block its shopper', async () => {
    const account = await accounts.deploy(shopperOwner.address, ++salt);
    const { c, ticket } = await checkoutFor(account);
    const own = await accounts.deploy(attackerOwner.address, 4n);
    await mined(sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token, to: own, value: BigInt(c.amountWei) }));
    await atBaseFees();
    const stolen = await userOperation(bundler, own, paying(c));
    expect((await ask('pm_getPaymasterStubData', stolen, ticket)).error?.data?.reason).toBe('not-the-wallet');
    expect(await refusal(stolen, ticket)).toBe('not-the-wallet');
    const shoppers = await userOperation(bundler, account, paying(c));
    expect((await ask('pm_getPaymasterData', shoppers, ticket)).result?.paymaster).toBe(paymaster);
  });

  it('when the POGS move away after the signature: the bundle fails and the account waits; moved inside the bundle, it costs one operation and the account is refused from then on', async () => {
    // Before the bundle: ShopPaymaster reads the balance again when the operation runs.
    const account = await accounts.deploy(attackerOwner.address, 5n);
    const { c, ticket } = await checkoutFor(account);
    const op = await userOperation(bundler, account, paying(c));
    const answer = await ask('pm_getPaymasterData', op, ticket);
    expect(answer.error).toBeUndefined();
    const mover = new Wallet(attackerOwner.privateKey, testChain.provider);
    await testChain.provider.send('anvil_setBalance', [mover.address, toQuantity(parseEther('0.01'))]);
    const accountAsOwner = new Contract(account, ACCOUNT, mover);
    await mined(
      accountAsOwner.getFunction('execute')(token, 0n, ERC20.encodeFunctionData('transfer', [attacker.address, BigInt(c.amountWei)])),
    );
    await expectNothingWon([await signed(op, answer.result!, attackerOwner)], [account, mover.address]);
    const again = await checkoutFor(account, false);
    expect(again.offer).toMatchObject({ unavailable: { reason: 'sponsorship-pending' } });

    // Inside the bundle: the account's own operation on another nonce key, paid from its own ETH,
    // moves the POGS first; the sponsored one then reverts, and its gas is paid.
    const other = await accounts.deploy(attackerOwner.address, 6n);
    const second = await checkoutFor(other);
    const sponsoredOp = await userOperation(bundler, other, paying(second.c));
    const granted = await ask('pm_getPaymasterData', sponsoredOp, second.ticket);
    expect(granted.error).toBeUndefined();
    await attacker.sendTransaction({ to: other, value: parseEther('0.001') }).then((tx) => mined(tx));
    const drain = {
      ...(await userOperation(
        bundler,
        other,
        ACCOUNT.encodeFunctionData('execute', [
          token,
          0n,
          ERC20.encodeFunctionData('transfer', [attacker.address, BigInt(second.c.amountWei)]),
        ]),
      )),
      nonce: toQuantity(1n << 64n),
      // It pays its own prefund, from its ETH.
      verificationGasLimit: toQuantity(150_000n),
    };
    const drainPacked = pack(drain, {
      paymaster: '0x',
      paymasterVerificationGasLimit: '0x0',
      paymasterPostOpGasLimit: '0x0',
      paymasterData: '0x',
    });
    drainPacked.paymasterAndData = '0x';
    drainPacked.signature = attackerOwner.signingKey.sign(await bundler.getFunction('getUserOpHash')(drainPacked)).serialized;
    const [depositBefore, wealthBefore] = [await deposit(), await wealth(other)];
    const receipt = await attackerBundles([drainPacked, await signed(sponsoredOp, granted.result!, attackerOwner)]);
    expect(receipt.status).toBe(1);
    const cost = depositBefore - (await deposit());
    expect(cost).toBeGreaterThan(0n);
    expect(await wealth(other)).toBeLessThan(wealthBefore);
    // The shop sees it: the watcher settles it as reverted, with what it cost, and the account is refused.
    await h.payments!.sponsorshipWatcher!.tick();
    const row = await h.database.db('paymaster_sponsorships').where({ checkout_id: second.c.id }).first();
    expect(row).toMatchObject({ outcome: 'reverted', actual_cost_wei: cost.toString() });
    const next = await checkoutFor(other);
    expect(next.offer).toMatchObject({ unavailable: { reason: 'sender-refused' } });
  });

  it('settles an honest payment as paid at its real cost, and flags an operation the shop never signed that its deposit paid', async () => {
    const honest = await honestSponsorship();
    const before = await deposit();
    const receipt = await mined(bundler.getFunction('handleOps')([honest.packed], TEST_BUNDLER));
    expect(receipt.status).toBe(1);
    await h.payments!.sponsorshipWatcher!.tick();
    const row = await h.database.db('paymaster_sponsorships').where({ checkout_id: honest.c.id }).first();
    expect(row).toMatchObject({
      outcome: 'paid',
      actual_cost_wei: (before - (await deposit())).toString(),
      tx_hash: receipt.hash.toLowerCase(),
    });
    // The metrics carry it: what was paid by outcome, and what is left of today's budget.
    observeGauges(gaugeSources(h.services));
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/^pogs_paymaster_spent_wei_total\{outcome="paid"\} [1-9]/m);
    const left = (await h.payments!.paymaster!.ledger.today(new Date())).leftWei;
    expect(metrics).toContain(`pogs_paymaster_budget_left_wei ${Number(left)}`);

    // The signer key in other hands: an operation signed with it, never asked of the service.
    const account = await accounts.deploy(attackerOwner.address, 7n);
    await mined(sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token, to: account, value: 1n }));
    await atBaseFees();
    const op = await userOperation(bundler, account, transferCall(token, store, 1n));
    const now = Math.floor(Date.now() / 1000);
    const data = await paymasterData(
      op,
      { chainId: 8453, paymaster, gas: PAYMASTER_GAS, signer: new Wallet(signerKey) },
      { validAfter: now - 60, validUntil: now + 600 },
      { token, amount: 1n, codeHash: ZeroHash },
    );
    const fields = {
      paymaster,
      paymasterData: data,
      paymasterVerificationGasLimit: toQuantity(PAYMASTER_GAS.verificationGasLimit),
      paymasterPostOpGasLimit: '0x0',
    };
    expect((await mined(bundler.getFunction('handleOps')([await signed(op, fields, attackerOwner)], TEST_BUNDLER))).status).toBe(1);
    await h.payments!.sponsorshipWatcher!.tick();
    const unrecorded = await h.database.db('paymaster_sponsorships').where({ sender: account.toLowerCase() }).first();
    expect(unrecorded).toMatchObject({ outcome: 'unrecorded', checkout_id: null });
    expect(BigInt(unrecorded.actual_cost_wei)).toBeGreaterThan(0n);
  });

  it('stops at each account’s daily limit and at the daily budget: past them, nothing more is signed and nothing more paid', async () => {
    // One account, paying for real, as often as the limit allows (5 a day by default).
    const account = await accounts.deploy(shopperOwner.address, ++salt);
    for (let i = 0; i < 5; i++) {
      const { c, ticket, offer } = await checkoutFor(account);
      expect(offer, `payment ${i + 1}`).toMatchObject({ url: expect.any(String) });
      await atBaseFees();
      const op = await userOperation(bundler, account, paying(c));
      const answer = await ask('pm_getPaymasterData', op, ticket);
      expect(answer.error?.data?.reason, `payment ${i + 1}`).toBeUndefined();
      expect((await mined(bundler.getFunction('handleOps')([await signed(op, answer.result!, shopperOwner)], TEST_BUNDLER))).status).toBe(
        1,
      );
    }
    const sixth = await checkoutFor(account);
    expect(sixth.offer).toMatchObject({ unavailable: { reason: 'sender-limit' } });
    await h.payments!.sponsorshipWatcher!.tick();

    // New accounts until the budget is spent: what is held for the sponsorships that can still land
    // and what the landed ones cost never go over it. The browser is told first (the offer assumes
    // an operation at the shop's gas caps), or the service refuses the operation itself.
    const budget = parseEther('0.0001');
    let refused: string | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const fresh = await accounts.deploy(shopperOwner.address, ++salt);
      const { c, offer, ticket } = await checkoutFor(fresh);
      if ('unavailable' in offer) refused = offer.unavailable.reason;
      else refused = (await ask('pm_getPaymasterData', await userOperation(bundler, fresh, paying(c)), ticket)).error?.data?.reason;
    }
    expect(refused).toBe('budget-spent');
    const { committedWei, leftWei } = await h.payments!.paymaster!.ledger.today(new Date());
    expect(committedWei).toBeLessThanOrEqual(budget);
    // Less is left than an operation at the shop's caps may cost (750,000 gas at the fee cap, ~0.000016 ETH here).
    expect(leftWei).toBeLessThan(parseEther('0.00002'));
    // The account at its limit, asking the service with a ticket all the same: refused there too.
    const sixthOp = await userOperation(bundler, account, paying(sixth.c));
    expect(await refusal(sixthOp, await ticketOf(sixth.c))).toBe('sender-limit');
  });
});
