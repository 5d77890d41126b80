import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AbiCoder, concat, hashMessage, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { UnavailableError } from '../../lib/unavailable';
import validator from './contracts/signature-validator.json';
import { signedBy, type ChainRpc } from './signature';

const OWNER = new Wallet(`0x${'11'.repeat(32)}`);
const STRANGER = new Wallet(`0x${'22'.repeat(32)}`);
const ACCOUNT = '0x1111111111111111111111111111111111111111';
const TEXT = 'example.com wants you to sign in with your Ethereum account';
/** What a smart account's signature looks like to the shop: hex that no plain key signed (here ERC-6492's ending). */
const CONTRACT_SIGNATURE = `0x${'ab'.repeat(100)}${'6492'.repeat(16)}`;
const outage = () => new UnavailableError('chain RPC rpc.example', 'timeout after 1 s', 'chain');

/** A chain that answers `answer` (or throws it) and records what it was asked. */
function chain(answer: unknown): ChainRpc & { calls: Array<[string, unknown[]]> } {
  const calls: Array<[string, unknown[]]> = [];
  const rpc = async (method: string, params: unknown[]) => {
    calls.push([method, params]);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return Object.assign(rpc, { calls });
}

describe('the signature validator contract', () => {
  it('matches its committed artifact (after editing the .sol: npx tsx scripts/compile-contracts.ts)', () => {
    const source = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'contracts', 'SignatureValidator.sol'), 'utf8');
    expect(validator.sourceSha256).toBe(createHash('sha256').update(source).digest('hex'));
  });
});

describe('signedBy', () => {
  it('recognises a plain key’s signature without asking the chain, and refuses another key’s for it', async () => {
    const signature = await OWNER.signMessage(TEXT);
    const rpc = chain(outage());
    expect(await signedBy(OWNER.address, TEXT, signature, rpc)).toBe(true);
    expect(await signedBy(OWNER.address.toLowerCase(), TEXT, signature)).toBe(true);
    expect(await signedBy(OWNER.address, TEXT, await STRANGER.signMessage(TEXT))).toBe(false);
    expect(rpc.calls).toEqual([]);
  });

  it('asks the chain once, with the validator’s creation code and its arguments as the data of a call without a `to`', async () => {
    const rpc = chain('0x01');
    expect(await signedBy(ACCOUNT, TEXT, CONTRACT_SIGNATURE, rpc)).toBe(true);
    const args = AbiCoder.defaultAbiCoder().encode(['address', 'bytes32', 'bytes'], [ACCOUNT, hashMessage(TEXT), CONTRACT_SIGNATURE]);
    expect(rpc.calls).toEqual([['eth_call', [{ data: concat([validator.bytecode, args]) }, 'latest']]]);
  });

  it('takes the validator’s 0x00, or anything but 0x01, as a no', async () => {
    for (const answer of ['0x00', '0x', '0x0001', null])
      expect(await signedBy(ACCOUNT, TEXT, CONTRACT_SIGNATURE, chain(answer))).toBe(false);
  });

  it('takes an error the node answered (the validator reverted) as a no, asked once', async () => {
    const rpc = chain(Object.assign(new Error('execution reverted'), { code: 'CALL_EXCEPTION' }));
    expect(await signedBy(ACCOUNT, TEXT, CONTRACT_SIGNATURE, rpc)).toBe(false);
    expect(rpc.calls).toHaveLength(1);
  });

  it('throws the outage when the chain did not answer (the caller says "try again"), asked once', async () => {
    const down = outage();
    let rpc = chain(down);
    await expect(signedBy(ACCOUNT, TEXT, CONTRACT_SIGNATURE, rpc)).rejects.toBe(down);
    expect(rpc.calls).toHaveLength(1);
    // wrapped by another layer's error: still the outage
    rpc = chain(new Error('call failed', { cause: down }));
    await expect(signedBy(ACCOUNT, TEXT, CONTRACT_SIGNATURE, rpc)).rejects.toThrow('call failed');
    // and a plain key still signs in meanwhile
    expect(await signedBy(OWNER.address, TEXT, await OWNER.signMessage(TEXT), rpc)).toBe(true);
  });

  it('refuses without a chain, or when the signature is not hex, and then asks nothing', async () => {
    const rpc = chain('0x01');
    expect(await signedBy(ACCOUNT, TEXT, CONTRACT_SIGNATURE)).toBe(false);
    for (const signature of ['', '0x', 'ab'.repeat(65), `0x${'a'.repeat(131)}`, `0x${'zz'.repeat(65)}`]) {
      expect(await signedBy(ACCOUNT, TEXT, signature, rpc)).toBe(false);
    }
    expect(rpc.calls).toEqual([]);
  });
});
