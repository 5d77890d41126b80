/**
 * Copies the Uniswap v3 contracts local mode deploys (server/chain/price-pool.ts) out of their npm
 * packages' published artifacts into one committed file, server/chain/contracts/uniswap-v3.json:
 * `npx tsx scripts/copy-uniswap-artifacts.ts`. The factory (it deploys each pool with the pool's
 * canonical bytecode, whose hash the periphery's PoolAddress library expects) and the
 * NonfungiblePositionManager (liquidity, and later swaps, through the same deployment). The
 * compiled server reads the copy, so local mode needs no dev dependency at run time; the
 * packages' versions are recorded, and a test (server/chain/contracts.test.ts) fails when the copy
 * no longer matches the installed packages.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each contract: its package and the artifact's path inside it. */
export const UNISWAP_CONTRACTS = {
  UniswapV3Factory: ['@uniswap/v3-core', 'artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'],
  NonfungiblePositionManager: [
    '@uniswap/v3-periphery',
    'artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  ],
} as const;

/** What the committed file holds, read from the installed packages. */
export function uniswapArtifacts() {
  const packages: Record<string, string> = {};
  const contracts: Record<string, { abi: unknown[]; bytecode: string }> = {};
  for (const [name, [pkg, file]] of Object.entries(UNISWAP_CONTRACTS)) {
    packages[pkg] = (require(`${pkg}/package.json`) as { version: string }).version;
    const artifact = require(`${pkg}/${file}`) as { abi: unknown[]; bytecode: string; linkReferences: object };
    if (Object.keys(artifact.linkReferences).length) throw new Error(`${name} needs linked libraries, which local mode does not deploy`);
    contracts[name] = { abi: artifact.abi, bytecode: artifact.bytecode };
  }
  return { packages, contracts };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = path.join(root, 'server/chain/contracts/uniswap-v3.json');
  const artifacts = uniswapArtifacts();
  fs.writeFileSync(out, `${JSON.stringify(artifacts, null, 2)}\n`);
  for (const [name, c] of Object.entries(artifacts.contracts)) console.log(`Copied ${name}: ${(c.bytecode.length - 2) / 2} bytes`);
  console.log(
    `from ${Object.entries(artifacts.packages)
      .map(([p, v]) => `${p}@${v}`)
      .join(', ')}`,
  );
}
