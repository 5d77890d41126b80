/**
 * Copies the Uniswap v3 contracts local mode deploys (server/chain/price-pool.ts) out of their npm
 * packages' published artifacts into one committed file, server/chain/contracts/uniswap-v3.json:
 * `npx tsx scripts/copy-uniswap-artifacts.ts`. The factory (it deploys each pool with the pool's
 * canonical bytecode, whose hash the periphery's PoolAddress library expects) and the
 * NonfungiblePositionManager (liquidity, and later swaps, through the same deployment); and for
 * paying with ETH or USDC (server/chain/swap-venue.ts), SwapRouter02 (the router Base has, whose
 * multicall takes a deadline and whose refundETH returns unspent ether) and QuoterV2 (the quotes,
 * read by eth_call). The compiled server reads the copy, so local mode needs no dev dependency at run time; the
 * packages' versions are recorded, and a test (server/chain/contracts.test.ts) fails when the copy
 * no longer matches the installed packages.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Artifact {
  abi: unknown[];
  bytecode: string;
  linkReferences: object;
}
/** Each contract: its package, the package's version and the artifact (required by name, so the dependency is seen). */
const UNISWAP_CONTRACTS: Record<string, { pkg: string; version: () => string; artifact: () => Artifact }> = {
  UniswapV3Factory: {
    pkg: '@uniswap/v3-core',
    version: () => require('@uniswap/v3-core/package.json').version,
    artifact: () => require('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
  },
  NonfungiblePositionManager: {
    pkg: '@uniswap/v3-periphery',
    version: () => require('@uniswap/v3-periphery/package.json').version,
    artifact: () => require('@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json'),
  },
  QuoterV2: {
    pkg: '@uniswap/v3-periphery',
    version: () => require('@uniswap/v3-periphery/package.json').version,
    artifact: () => require('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json'),
  },
  SwapRouter02: {
    pkg: '@uniswap/swap-router-contracts',
    version: () => require('@uniswap/swap-router-contracts/package.json').version,
    artifact: () => require('@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json'),
  },
};

/** What the committed file holds, read from the installed packages. */
export function uniswapArtifacts() {
  const packages: Record<string, string> = {};
  const contracts: Record<string, { abi: unknown[]; bytecode: string }> = {};
  for (const [name, source] of Object.entries(UNISWAP_CONTRACTS)) {
    packages[source.pkg] = source.version();
    const artifact = source.artifact();
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
