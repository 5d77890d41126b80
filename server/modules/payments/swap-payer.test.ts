import { describe, expect, it } from 'vitest';
import { AbiCoder, toBeHex, zeroPadValue } from 'ethers';
import {
  BEFORE_EXECUTION_TOPIC,
  paidWithOf,
  USER_OPERATION_EVENT_TOPIC,
  WETH_DEPOSIT_TOPIC,
  type SwapFacts,
  type TransactionFacts,
} from './swap-payer';
import { TRANSFER_TOPIC, type RawLog } from './verify';

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const POGS = addr(0x100);
const STORE = addr(0x5);
const POOL = addr(0xb001);
const OTHER_POOL = addr(0xb002);
const SHOPPER = addr(0xa11ce);
const ACCOUNT = addr(0xacc);
const BUNDLER = addr(0xb0b);
const RELAY = addr(0x7e1a);
const HASH = '0x' + 'cd'.repeat(32);
const swap: SwapFacts = {
  router: addr(0x40),
  entryPoints: [addr(0x4337)],
  pools: [POOL, OTHER_POOL],
  usdc: addr(0x05dc),
  weth: addr(0xe7),
};

const word = (v: bigint) => zeroPadValue(toBeHex(v), 32);
const topic = (a: string) => zeroPadValue(a, 32);
const log = (logIndex: number, address: string, topics: string[], data: string): RawLog => ({
  address,
  topics,
  data,
  logIndex,
  blockNumber: 7,
  blockHash: '0x' + 'ab'.repeat(32),
  transactionHash: HASH,
});
const erc20 = (logIndex: number, token: string, from: string, to: string, value: bigint) =>
  log(logIndex, token, [TRANSFER_TOPIC, topic(from), topic(to)], word(value));
const deposit = (logIndex: number, dst: string, wad: bigint, weth = swap.weth) =>
  log(logIndex, weth, [WETH_DEPOSIT_TOPIC, topic(dst)], word(wad));
const opEvent = (logIndex: number, sender: string, success: boolean, entryPoint = swap.entryPoints[0]!) =>
  log(
    logIndex,
    entryPoint,
    [USER_OPERATION_EVENT_TOPIC, '0x' + '11'.repeat(32), topic(sender), topic(addr(0))],
    AbiCoder.defaultAbiCoder().encode(['uint256', 'bool', 'uint256', 'uint256'], [3n, success, 10n ** 12n, 90_000n]),
  );

/** The EntryPoint's BeforeExecution(), logged first in a bundle (its index below every other here). */
const beforeExecution = (entryPoint = swap.entryPoints[0]!, logIndex = -1) => log(logIndex, entryPoint, [BEFORE_EXECUTION_TOPIC], '0x');
const bundle = (...logs: RawLog[]) => [beforeExecution(), ...logs];

const POGS_OUT = 12n * 10n ** 18n;
const pogsToStore = (logIndex: number, from = POOL) => erc20(logIndex, POGS, from, STORE, POGS_OUT);
const tx = (from: string, to: string | null, value = 0n): TransactionFacts => ({ hash: HASH, from, to, value });
const paid = (transferLog: RawLog, from: string, t: TransactionFacts | null, logs: RawLog[], facts: SwapFacts | null = swap) =>
  paidWithOf({ transfer: { txHash: HASH, logIndex: transferLog.logIndex, from }, tx: t, logs, swap: facts });

describe('paidWithOf', () => {
  it('a plain transfer: its sender paid in POGS, whatever the transaction', () => {
    const t = pogsToStore(0, SHOPPER);
    expect(paid(t, SHOPPER, null, [t])).toEqual({ coin: 'POGS', amountIn: null, payer: SHOPPER });
    // Without a route set, even a transfer from a pool is taken as it is.
    const fromPool = pogsToStore(0);
    expect(paid(fromPool, POOL, null, [fromPool], null)).toEqual({ coin: 'POGS', amountIn: null, payer: POOL });
  });

  it('ETH by the router: the caller paid what the router wrapped', () => {
    const logs = [
      deposit(0, swap.router, 4_200_000_000_000_000n),
      erc20(1, swap.weth, swap.router, POOL, 4_200_000_000_000_000n),
      pogsToStore(2),
    ];
    expect(paid(logs[2]!, POOL, tx(SHOPPER, swap.router, 5n * 10n ** 15n), logs)).toEqual({
      coin: 'ETH',
      amountIn: '4200000000000000',
      payer: SHOPPER,
    });
  });

  it('USDC by the router: the caller paid the USDC it sent (their sum)', () => {
    const logs = [
      pogsToStore(0, OTHER_POOL),
      erc20(1, swap.usdc, SHOPPER, OTHER_POOL, 12_000_000n),
      erc20(2, swap.usdc, SHOPPER, POOL, 500_000n),
    ];
    expect(paid(logs[0]!, OTHER_POOL, tx(SHOPPER, swap.router), logs)).toEqual({ coin: 'USDC', amountIn: '12500000', payer: SHOPPER });
  });

  it('by the router with no proven coin: not proven (a payer counts only with what it paid in)', () => {
    const logs = [pogsToStore(0), erc20(1, addr(0xdead), SHOPPER, POOL, 5n)];
    expect(paid(logs[0]!, POOL, tx(SHOPPER, swap.router), logs)).toEqual({ coin: 'swap', amountIn: null, payer: null });
  });

  it('a look-alike Deposit or USDC Transfer from another contract does not count', () => {
    const logs = [
      deposit(0, swap.router, 10n ** 18n, addr(0xfa6e)),
      erc20(1, addr(0xfa6e), SHOPPER, POOL, 10n ** 6n),
      deposit(2, SHOPPER, 10n ** 18n), // WETH wrapped for someone else than the router
      pogsToStore(3),
    ];
    expect(paid(logs[3]!, POOL, tx(SHOPPER, swap.router), logs)).toEqual({ coin: 'swap', amountIn: null, payer: null });
  });

  it("a smart account's user operation: the account paid, never the bundler", () => {
    const logs = bundle(
      erc20(0, swap.usdc, ACCOUNT, POOL, 7_000_000n),
      pogsToStore(1),
      opEvent(2, ACCOUNT, true),
      erc20(3, swap.usdc, BUNDLER, POOL, 9n), // the next operation's
      opEvent(4, BUNDLER, true),
    );
    expect(paid(logs[1]!, POOL, tx(BUNDLER, swap.entryPoints[0]!), logs)).toEqual({ coin: 'USDC', amountIn: '7000000', payer: ACCOUNT });
  });

  it('in a bundle of several operations: the event after the transfer names the payer, and only its logs count', () => {
    const logs = bundle(
      erc20(0, swap.usdc, ACCOUNT, POOL, 1_000_000n),
      opEvent(1, ACCOUNT, true), // an earlier operation of the same account
      deposit(2, swap.router, 3n * 10n ** 15n),
      pogsToStore(3),
      opEvent(4, ACCOUNT, true),
    );
    expect(paid(logs[3]!, POOL, tx(BUNDLER, swap.entryPoints[0]!), logs)).toEqual({
      coin: 'ETH',
      amountIn: '3000000000000000',
      payer: ACCOUNT,
    });
  });

  it('each EntryPoint named counts (v0.6 to v0.8 share the event); one not named proves nothing, nor does an event from another EntryPoint', () => {
    const v06 = addr(0x5ff1);
    const facts: SwapFacts = { ...swap, entryPoints: [swap.entryPoints[0]!, v06] };
    const logs = [beforeExecution(v06), erc20(0, swap.usdc, ACCOUNT, POOL, 7_000_000n), pogsToStore(1), opEvent(2, ACCOUNT, true, v06)];
    expect(paid(logs[1]!, POOL, tx(BUNDLER, v06), logs, facts)).toEqual({ coin: 'USDC', amountIn: '7000000', payer: ACCOUNT });
    expect(paid(logs[1]!, POOL, tx(BUNDLER, v06), logs)).toEqual({ coin: 'swap', amountIn: null, payer: null });
    // The transaction called one EntryPoint; an event from the other one is not its operation's.
    expect(paid(logs[1]!, POOL, tx(BUNDLER, swap.entryPoints[0]!), logs, facts)).toEqual({ coin: 'swap', amountIn: null, payer: null });
  });

  it('a failed operation, no event after the transfer, or a look-alike event from another contract: payer not proven', () => {
    const unproven = { coin: 'swap', amountIn: null, payer: null };
    const failed = bundle(pogsToStore(0), opEvent(1, ACCOUNT, false));
    expect(paid(failed[1]!, POOL, tx(BUNDLER, swap.entryPoints[0]!), failed)).toEqual(unproven);
    const before = bundle(opEvent(0, ACCOUNT, true), pogsToStore(1));
    expect(paid(before[2]!, POOL, tx(BUNDLER, swap.entryPoints[0]!), before)).toEqual(unproven);
    const fake = bundle(pogsToStore(0), opEvent(1, RELAY, true, addr(0xfa6e)), opEvent(2, ACCOUNT, false));
    expect(paid(fake[1]!, POOL, tx(BUNDLER, swap.entryPoints[0]!), fake)).toEqual(unproven);
  });

  it("a stranger's transaction running someone's signed operation inside it is not proven: nested in another EntryPoint's bundle, in a second bundle, or in a router call", () => {
    const v06 = addr(0x5ff1);
    const facts: SwapFacts = { ...swap, entryPoints: [swap.entryPoints[0]!, v06] };
    // The attacker's operation (v0.7) calls v0.6's handleOps with the victim's: the victim's USDC
    // pays, its own event first, the attacker's after.
    const nested = [
      beforeExecution(swap.entryPoints[0]!, 0),
      beforeExecution(v06, 1),
      erc20(2, swap.usdc, ACCOUNT, POOL, 7_000_000n),
      pogsToStore(3),
      opEvent(4, ACCOUNT, true, v06),
      opEvent(5, RELAY, true),
    ];
    expect(paid(nested[3]!, POOL, tx(BUNDLER, swap.entryPoints[0]!), nested, facts)).toEqual({ coin: 'swap', amountIn: null, payer: null });
    // The same EntryPoint entered twice (v0.6 guards no re-entry): two bundles.
    const twice = [
      beforeExecution(v06, 0),
      beforeExecution(v06, 1),
      erc20(2, swap.usdc, ACCOUNT, POOL, 7n),
      pogsToStore(3),
      opEvent(4, ACCOUNT, true, v06),
      opEvent(5, RELAY, true, v06),
    ];
    expect(paid(twice[3]!, POOL, tx(BUNDLER, v06), twice, facts)).toEqual({ coin: 'swap', amountIn: null, payer: null });
    // A router call whose token callback ran a bundle: the caller is not the payer.
    const inRouter = [beforeExecution(v06, 0), erc20(1, swap.usdc, ACCOUNT, POOL, 7n), pogsToStore(2), opEvent(3, ACCOUNT, true, v06)];
    expect(paid(inRouter[2]!, POOL, tx(RELAY, swap.router), inRouter, facts)).toEqual({ coin: 'swap', amountIn: null, payer: null });
    // The same bundle with one BeforeExecution, its own: the account is the payer.
    const honest = [beforeExecution(v06, 0), erc20(1, swap.usdc, ACCOUNT, POOL, 7n), pogsToStore(2), opEvent(3, ACCOUNT, true, v06)];
    expect(paid(honest[2]!, POOL, tx(BUNDLER, v06), honest, facts)).toEqual({ coin: 'USDC', amountIn: '7', payer: ACCOUNT });
  });

  it('another contract, a relay or an aggregator in between: payer not proven, its caller never becomes the payer', () => {
    const logs = [deposit(0, swap.router, 10n ** 15n), pogsToStore(1), opEvent(2, ACCOUNT, true)];
    const unproven = { coin: 'swap', amountIn: null, payer: null };
    expect(paid(logs[1]!, POOL, tx(RELAY, addr(0x1a66)), logs)).toEqual(unproven);
    expect(paid(logs[1]!, POOL, tx(RELAY, null), logs)).toEqual(unproven);
    // No transaction (the node did not give it), or another transaction's.
    expect(paid(logs[1]!, POOL, null, logs)).toEqual(unproven);
    expect(paid(logs[1]!, POOL, { ...tx(SHOPPER, swap.router), hash: '0x' + '99'.repeat(32) }, logs)).toEqual(unproven);
  });

  it('compares addresses in any case', () => {
    const logs = [deposit(0, swap.router.toUpperCase().replace('0X', '0x'), 10n ** 15n), pogsToStore(1)];
    const upper = { ...tx(SHOPPER.toUpperCase().replace('0X', '0x'), swap.router.toUpperCase().replace('0X', '0x')) };
    expect(paid(logs[1]!, POOL.toUpperCase().replace('0X', '0x'), upper, logs)).toEqual({
      coin: 'ETH',
      amountIn: '1000000000000000',
      payer: SHOPPER,
    });
  });
});
