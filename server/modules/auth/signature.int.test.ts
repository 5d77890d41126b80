/**
 * The shop's signature validator (contracts/SignatureValidator.sol) on a real chain, through
 * signedBy and called directly: ERC-6492's order of checks for each kind of account, and that the
 * call deploys nothing. smart-wallets.int.test.ts signs in with it over HTTP.
 */
import { AbiCoder, concat, dataSlice, hashMessage, toBeHex } from 'ethers';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { deploySmartAccounts, type SmartAccounts } from '../../test/smart-account';
import { useTestChain } from '../../test/use-test-chain';
import validator from './contracts/signature-validator.json';
import { signedBy, type ChainRpc } from './signature';

const OWNER = DEV_ACCOUNTS[2]!;
const STRANGER = DEV_ACCOUNTS[3]!;
const TEXT = 'Sign in to POGS Shop to see your orders.';
const testChain = useTestChain();

describe('the signature validator', () => {
  let accounts: SmartAccounts;
  let rpc: ChainRpc;
  /** What the validator answers for (signer, hash, signature): its one byte, or the node's error. */
  const validate = (signer: string, hash: string, signature: string) =>
    testChain.provider
      .send('eth_call', [
        {
          data: concat([validator.bytecode, AbiCoder.defaultAbiCoder().encode(['address', 'bytes32', 'bytes'], [signer, hash, signature])]),
        },
        'latest',
      ])
      .catch((err: Error) => err);
  const sign = (who: string, text = TEXT) => accounts.sign(who, text);

  beforeAll(async () => {
    accounts = await deploySmartAccounts(testChain.provider, DEV_ACCOUNTS[0]!);
    rpc = (method, params) => testChain.provider.send(method, params);
  });

  it('checks a deployed account by ERC-1271: its owner’s signature, not a stranger’s', async () => {
    const account = await accounts.deploy(OWNER, 10n);
    expect(await signedBy(account, TEXT, await sign(OWNER), rpc)).toBe(true);
    expect(await signedBy(account, TEXT, await sign(STRANGER), rpc)).toBe(false);
    expect(await signedBy(account, 'another message', await sign(OWNER), rpc)).toBe(false);
  });

  it('checks an account not deployed yet by its ERC-6492 signature, deploying nothing', async () => {
    const account = await accounts.addressOf(OWNER, 11n);
    expect(await signedBy(account, TEXT, accounts.wrap6492(OWNER, await sign(OWNER), 11n), rpc)).toBe(true);
    expect(await signedBy(account, TEXT, accounts.wrap6492(OWNER, await sign(STRANGER), 11n), rpc)).toBe(false);
    // a wrapper whose factory call makes another account (salt 12): the address still has no code
    expect(await signedBy(account, TEXT, accounts.wrap6492(OWNER, await sign(OWNER), 12n), rpc)).toBe(false);
    expect(await accounts.deployed(account)).toBe(false);
    expect(await accounts.deployed(await accounts.addressOf(OWNER, 12n))).toBe(false);
  });

  it('still accepts an ERC-6492 signature once the account is deployed (the account as it is now decides)', async () => {
    const account = await accounts.addressOf(OWNER, 13n);
    const wrapped = accounts.wrap6492(OWNER, await sign(OWNER), 13n);
    await accounts.deploy(OWNER, 13n);
    expect(await signedBy(account, TEXT, wrapped, rpc)).toBe(true);
    expect(await signedBy(account, TEXT, accounts.wrap6492(OWNER, await sign(STRANGER), 13n), rpc)).toBe(false);
  });

  it('refuses a wrapper whose factory call fails or that does not decode', async () => {
    const account = await accounts.addressOf(OWNER, 14n);
    const inner = await sign(OWNER);
    // the factory named is a plain key (the call does nothing), or the factory refuses the calldata
    const wrap = (factory: string, data: string) =>
      concat([AbiCoder.defaultAbiCoder().encode(['address', 'bytes', 'bytes'], [factory, data, inner]), `0x${'6492'.repeat(16)}`]);
    expect(await signedBy(account, TEXT, wrap(STRANGER, '0x'), rpc)).toBe(false);
    expect(await signedBy(account, TEXT, wrap(accounts.factory, '0xdeadbeef'), rpc)).toBe(false);
    expect(await validate(account, hashMessage(TEXT), `0x${'ab'.repeat(100)}${'6492'.repeat(16)}`)).toBeInstanceOf(Error);
    expect(await signedBy(account, TEXT, `0x${'ab'.repeat(100)}${'6492'.repeat(16)}`, rpc)).toBe(false);
  });

  it('checks a plain key by ecrecover when the address has no code: 65 bytes, v 27 or 28, the right key', async () => {
    const hash = hashMessage(TEXT);
    const signature = await sign(OWNER);
    expect(await validate(OWNER, hash, signature)).toBe('0x01');
    expect(await validate(STRANGER, hash, signature)).toBe('0x00');
    expect(await validate(OWNER, hashMessage('another message'), signature)).toBe('0x00');
    expect(await validate(OWNER, hash, concat([dataSlice(signature, 0, 64), toBeHex(29)]))).toBe('0x00');
    expect(await validate(OWNER, hash, dataSlice(signature, 0, 64))).toBe('0x00');
    expect(await validate(OWNER, hash, concat([signature, '0x00']))).toBe('0x00');
  });
});
