/**
 * Compiles server/chain/contracts/DemoPogsToken.sol with solc (the npm package, offline) into the
 * artifact the server deploys in local mode: `npx tsx scripts/compile-token.ts`.
 * The artifact is committed so `npm start` never needs the compiler.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const solc = require('solc');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'server/chain/contracts');
const source = fs.readFileSync(path.join(dir, 'DemoPogsToken.sol'), 'utf8');

const input = {
  language: 'Solidity',
  sources: { 'DemoPogsToken.sol': { content: source } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const findImports = (importPath: string) => {
  try {
    return { contents: fs.readFileSync(require.resolve(importPath), 'utf8') };
  } catch {
    return { error: `not found: ${importPath}` };
  }
};
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
if (errors.length) {
  console.error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  process.exit(1);
}
const contract = output.contracts['DemoPogsToken.sol'].DemoPogsToken;
const artifact = {
  contractName: 'DemoPogsToken',
  compiler: `solc ${solc.version()}`,
  sourceSha256: createHash('sha256').update(source).digest('hex'),
  abi: contract.abi,
  bytecode: `0x${contract.evm.bytecode.object}`,
};
fs.writeFileSync(path.join(dir, 'demo-pogs-token.json'), `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`Compiled DemoPogsToken with ${artifact.compiler}: ${(artifact.bytecode.length - 2) / 2} bytes`);
