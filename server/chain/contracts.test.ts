import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import token from './contracts/demo-pogs-token.json';
import smartAccount from './contracts/demo-smart-account.json';
import paymaster from './contracts/shop-paymaster.json';
import weth from './contracts/demo-weth.json';
import aggregator from './contracts/demo-aggregator.json';
import usdc from './contracts/demo-usdc.json';
import uniswap from './contracts/uniswap-v3.json';
import { uniswapArtifacts } from '../../scripts/copy-uniswap-artifacts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'contracts');
const sha256 = (file: string) =>
  createHash('sha256')
    .update(fs.readFileSync(path.join(dir, file), 'utf8'))
    .digest('hex');

describe('the compiled contracts', () => {
  // After editing a .sol file, recompile: npx tsx scripts/compile-contracts.ts
  it.each([
    ['DemoPogsToken.sol', token.sourceSha256],
    ['DemoSmartAccount.sol', smartAccount.sourceSha256],
    ['ShopPaymaster.sol', paymaster.sourceSha256],
    ['DemoWeth.sol', weth.sourceSha256],
    ['DemoAggregator.sol', aggregator.sourceSha256],
    ['DemoUsdc.sol', usdc.sourceSha256],
  ])('%s matches its committed artifact', (source, recorded) => {
    expect(recorded).toBe(sha256(source));
  });

  // After upgrading @uniswap/v3-core, v3-periphery or swap-router-contracts, copy them again: npx tsx scripts/copy-uniswap-artifacts.ts
  it('the Uniswap v3 contracts are those of the installed packages, at the versions recorded', () => {
    expect(uniswap).toEqual(uniswapArtifacts());
  });
});
