/**
 * Compiles the Solidity sources of server/chain/contracts with solc (the npm package, offline)
 * into the artifacts the server and the tests deploy: `npx tsx scripts/compile-contracts.ts`.
 * - DemoPogsToken.sol → demo-pogs-token.json: the token local mode deploys;
 * - DemoSmartAccount.sol → demo-smart-account.json: a smart account (ERC-4337, ERC-1271) and its
 *   factory, for smart-wallet shoppers on the local chain and in the tests;
 * - ShopPaymaster.sol → shop-paymaster.json: the shop's own verifying paymaster (ERC-4337), which
 *   pays the gas of the user operations the shop's paymaster service signed;
 * - DemoWeth.sol → demo-weth.json and DemoAggregator.sol → demo-aggregator.json: the wrapped ether
 *   of local mode's POGS/WETH Uniswap v3 pool and its Chainlink-style feeds (ETH/USD, the L2
 *   sequencer's uptime), from which the dollar reference is read (server/chain/price-pool.ts);
 * - DemoUsdc.sol → demo-usdc.json: the 6-decimal USDC of local mode's POGS/USDC pool, which
 *   shoppers pay with when they pay in dollars (server/chain/swap-venue.ts);
 * - server/modules/auth/contracts/SignatureValidator.sol → signature-validator.json: the check of a
 *   smart account's sign-in signature (ERC-1271, ERC-6492), which sign-in sends with an eth_call
 *   and never deploys (server/modules/auth/signature.ts);
 * - server/test/contracts/Attacker.sol → attacker.json: what a stranger deploys to make the shop's
 *   paymaster pay for something else (the paymaster tests' attacks);
 * - server/test/contracts/PoolSwapper.sol → pool-swapper.json: what the price-reference tests
 *   trade the pool with (a push lasting one block, or minutes).
 * The artifacts are committed so `npm start` never needs the compiler; each records its source's
 * hash, and a test fails when a source no longer matches its artifact.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { keccak256 } from 'ethers';

const require = createRequire(import.meta.url);
const solc = require('solc');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chainDir = path.join(root, 'server/chain/contracts');

/**
 * Each source, the artifact it becomes, and the contracts of it the artifact holds; `runtimeOf`:
 * contracts of imported sources whose runtime code's hash the artifact records (the proxy every
 * demo smart account is, which the paymaster's list of known wallets names by that hash).
 */
const TARGETS: Array<{ dir?: string; source: string; artifact: string; contracts: string[]; runtimeOf?: Record<string, string> }> = [
  { source: 'DemoPogsToken.sol', artifact: 'demo-pogs-token.json', contracts: ['DemoPogsToken'] },
  {
    source: 'DemoSmartAccount.sol',
    artifact: 'demo-smart-account.json',
    contracts: ['DemoSmartAccount', 'DemoSmartAccountFactory'],
    runtimeOf: { ERC1967Proxy: '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol' },
  },
  { source: 'ShopPaymaster.sol', artifact: 'shop-paymaster.json', contracts: ['ShopPaymaster'] },
  { source: 'DemoWeth.sol', artifact: 'demo-weth.json', contracts: ['DemoWeth'] },
  { source: 'DemoAggregator.sol', artifact: 'demo-aggregator.json', contracts: ['DemoAggregator'] },
  { source: 'DemoUsdc.sol', artifact: 'demo-usdc.json', contracts: ['DemoUsdc'] },
  {
    dir: path.join(root, 'server/modules/auth/contracts'),
    source: 'SignatureValidator.sol',
    artifact: 'signature-validator.json',
    contracts: ['SignatureValidator'],
  },
  {
    dir: path.join(root, 'server/test/contracts'),
    source: 'Attacker.sol',
    artifact: 'attacker.json',
    contracts: ['AttackerAccount', 'AttackerFactory'],
  },
  { dir: path.join(root, 'server/test/contracts'), source: 'PoolSwapper.sol', artifact: 'pool-swapper.json', contracts: ['PoolSwapper'] },
];

const findImports = (importPath: string) => {
  try {
    return { contents: fs.readFileSync(require.resolve(importPath), 'utf8') };
  } catch {
    return { error: `not found: ${importPath}` };
  }
};

for (const target of TARGETS) {
  const dir = target.dir ?? chainDir;
  const source = fs.readFileSync(path.join(dir, target.source), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [target.source]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) {
    console.error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
    process.exit(1);
  }
  const compiled = (name: string) => output.contracts[target.source][name];
  const sourceSha256 = createHash('sha256').update(source).digest('hex');
  const compiler = `solc ${solc.version()}`;
  // One contract: its fields at the top (as the token's artifact always was); several: by name.
  const entry = (name: string) => ({ abi: compiled(name).abi, bytecode: `0x${compiled(name).evm.bytecode.object}` });
  const runtime = Object.entries(target.runtimeOf ?? {}).map(([name, file]) => [
    name,
    keccak256(`0x${output.contracts[file][name].evm.deployedBytecode.object}`),
  ]);
  const artifact =
    target.contracts.length === 1
      ? { contractName: target.contracts[0], compiler, sourceSha256, ...entry(target.contracts[0]!) }
      : {
          compiler,
          sourceSha256,
          contracts: Object.fromEntries(target.contracts.map((name) => [name, entry(name)])),
          ...(runtime.length && { runtimeCodeHashes: Object.fromEntries(runtime) }),
        };
  fs.writeFileSync(path.join(dir, target.artifact), `${JSON.stringify(artifact, null, 2)}\n`);
  for (const name of target.contracts) console.log(`Compiled ${name} with ${compiler}: ${(entry(name).bytecode.length - 2) / 2} bytes`);
}
