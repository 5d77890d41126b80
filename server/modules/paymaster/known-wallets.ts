/**
 * The wallets whose payments the shop sponsors: only accounts whose code the shop knows, so that
 * `execute(token, 0, transfer(store, amount))` does what it says and nothing else, and their
 * validation burns no more gas than it should. An operation whose account the shop cannot place is
 * refused (`unknown-account`); its shopper pays the gas as usual.
 *
 * An account is known when:
 * - its operation deploys it (`factory`) with a factory on the list (the EntryPoint refuses a
 *   factory for an account that already exists, so nothing else can be in its place);
 * - it is deployed and its code is an ERC-1967 proxy the list names (by the hash of its runtime
 *   code), whose implementation (the proxy's ERC-1967 slot) is on the list;
 * - it is an EIP-7702 account (code `0xef0100 ‖ delegate`) whose delegate is on the list.
 * The check reads the account's code (and slot) from the chain when signing; the signature then
 * binds that code (ShopPaymaster refuses the operation if the account's code hash changed since).
 */
import { keccak256 } from 'ethers';
import type { PaymasterConfig } from '../../paymaster-config';
import { PaymasterError } from './paymaster-error';

/** The ERC-1967 implementation slot: bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1). */
export const ERC1967_IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
/** What an EIP-7702 account's code starts with, before its delegate's address. */
const EIP7702_PREFIX = '0xef0100';

/**
 * Solady's minimal ERC-1967 proxy (LibClone's createDeterministicERC1967), the runtime code every
 * Coinbase Smart Wallet account has: it delegates every call to the address in the ERC-1967 slot.
 */
const SOLADY_ERC1967_RUNTIME =
  '0x363d3d373d3d363d7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc545af43d6000803e6038573d6000fd5b3d6000f3';

/** A family of smart accounts the shop sponsors, as the chain shows them. */
export interface KnownWallet {
  name: string;
  /** Factories whose deployment of an account (an operation's `factory`) is sponsored. */
  factories: readonly string[];
  /** keccak256 of the accounts' runtime code: ERC-1967 proxies, whose implementation must be listed too. */
  proxyCodeHashes: readonly string[];
  /** What a proxy's ERC-1967 slot may hold, or an EIP-7702 account may delegate to. */
  implementations: readonly string[];
}

/**
 * The wallets known on Base. Coinbase Smart Wallet (Base Account) v1 and v1.1: their factories
 * and implementations as Coinbase deployed them (the same address on every chain), their accounts
 * Solady's ERC-1967 proxy. Their operations go through EntryPoint v0.6, so they reach a shop only
 * whose ENTRYPOINT_ADDRESS is v0.6's (docs/payments.md). eth-infinitism's Simple7702Account, the
 * EntryPoint v0.8 delegate of EIP-7702 accounts, at both its public deployments.
 */
export const BASE_WALLETS: readonly KnownWallet[] = [
  {
    name: 'Coinbase Smart Wallet',
    factories: ['0x0BA5ED0c6AA8c49038F819E587E2633c4A9F428a', '0xBA5ED110eFDBa3D005bfC882d75358ACBbB85842'],
    proxyCodeHashes: [keccak256(SOLADY_ERC1967_RUNTIME)],
    implementations: ['0x000100abaad02f1cfC8Bbe32bD5a564817339E72', '0x00000110dCdEdC9581cb5eCB8467282f2926534d'],
  },
  {
    name: 'Simple7702Account',
    factories: [],
    proxyCodeHashes: [],
    implementations: ['0x4Cd241E8d1510e30b2076397afc7508Ae59C66c9', '0xe6Cae83BdE06E4c305530e199D7217f42808555B'],
  },
];

/**
 * The wallets a shop sponsors: Base's (or, in local mode, the local chain's own demo smart
 * accounts and 7702 delegate), and those the PAYMASTER_ACCOUNT_* settings add.
 */
export function knownWallets(config: Pick<PaymasterConfig, 'localWallets' | 'extraWallets'>): KnownWallet[] {
  const defaults = config.localWallets ? [{ name: 'the local chain’s smart accounts', ...config.localWallets }] : [...BASE_WALLETS];
  const extra = config.extraWallets;
  const any = extra.factories.length + extra.implementations.length + extra.proxyCodeHashes.length > 0;
  return any ? [...defaults, { name: 'from the settings', ...extra }] : defaults;
}

/** Where an account stands, read from the chain. */
export type AccountCode =
  /** The operation deploys it with a known factory: its code is bound by the factory, not by a hash. */
  | { kind: 'deploying'; wallet: string }
  /** Deployed and known: `codeHash` is what ShopPaymaster checks it still has when the operation runs. */
  | { kind: 'deployed'; wallet: string; codeHash: string };

interface ChainReads {
  code(address: string): Promise<string>;
  storageAt(address: string, slot: string): Promise<string>;
}

const lower = (list: readonly string[]) => new Set(list.map((a) => a.toLowerCase()));
const unknown = (message: string) => new PaymasterError(-32001, message, 'unknown-account');

/** The known wallets, indexed for the checks. */
export class KnownWallets {
  private readonly factories = new Map<string, string>();
  private readonly proxies = new Map<string, string>();
  private readonly implementations = new Map<string, string>();

  constructor(readonly wallets: readonly KnownWallet[]) {
    for (const wallet of wallets) {
      for (const f of lower(wallet.factories)) this.factories.set(f, wallet.name);
      for (const h of lower(wallet.proxyCodeHashes)) this.proxies.set(h, wallet.name);
      for (const i of lower(wallet.implementations)) this.implementations.set(i, wallet.name);
    }
  }

  /**
   * What `sender`'s account is, or an `unknown-account` refusal. `factory`: the operation's, when
   * it deploys the account.
   */
  async place(sender: string, factory: string | null | undefined, chain: ChainReads): Promise<AccountCode> {
    if (factory) {
      const wallet = this.factories.get(factory.toLowerCase());
      if (!wallet) {
        throw unknown(
          'The shop pays the network fee only for wallets it knows, and this account’s factory is not one of them: pay the fee from the wallet.',
        );
      }
      return { kind: 'deploying', wallet };
    }
    return this.placeCode(sender, await chain.code(sender), chain);
  }

  /** What the account with runtime code `code` is (read already), or an `unknown-account` refusal. */
  async placeCode(sender: string, runtime: string, chain: Pick<ChainReads, 'storageAt'>): Promise<AccountCode> {
    const code = runtime.toLowerCase();
    if (code === '0x') {
      throw unknown('The account does not exist on Base yet and the operation does not create it.');
    }
    if (code.length === 2 + 2 * 23 && code.startsWith(EIP7702_PREFIX)) {
      const wallet = this.implementations.get(`0x${code.slice(EIP7702_PREFIX.length)}`);
      if (!wallet) {
        throw unknown(
          'The shop pays the network fee only for wallets it knows, and this account delegates to another contract: pay the fee from the wallet.',
        );
      }
      return { kind: 'deployed', wallet, codeHash: keccak256(code) };
    }
    const codeHash = keccak256(code);
    const proxy = this.proxies.get(codeHash);
    const implementation = proxy && implementationIn(await chain.storageAt(sender, ERC1967_IMPLEMENTATION_SLOT));
    const wallet = implementation && this.implementations.get(implementation);
    if (!wallet) {
      throw unknown(
        'The shop pays the network fee only for wallets it knows, and this account is not one of them: pay the fee from the wallet.',
      );
    }
    return { kind: 'deployed', wallet, codeHash };
  }
}

/** The address a storage word holds (its low 20 bytes), lower-case; null when the word holds more. */
function implementationIn(word: string): string | null {
  const hex = word.toLowerCase().replace(/^0x/, '').padStart(64, '0');
  if (hex.length !== 64 || !/^0{24}[0-9a-f]{40}$/.test(hex)) return null;
  return `0x${hex.slice(24)}`;
}
