/**
 * Who pays smart wallets' gas (docs/payments.md §9), read by loadConfig: the shop's own verifying
 * paymaster (PAYMASTER_ADDRESS and PAYMASTER_SIGNER_KEY: a contract deposited in the EntryPoint and
 * the key that signs for it) or a hosted paymaster service (PAYMASTER_SERVICE_URL, with
 * PAYMASTER_SERVICE_KEY and PAYMASTER_POLICY_ID when the provider takes them). One or the other,
 * never both; neither: the shop pays no gas. The hosted service's URL and key are secrets (most
 * providers put the key in the URL): no problem reported here ever repeats them.
 */
import { parseEther } from 'ethers';
import { z } from 'zod';
import { ADDRESS_PATTERN } from '../common/chain';
import { fetchRefusesPort, isLoopbackHost } from './lib/hosts';
import { list, optional, urlString } from './lib/settings';

/** ERC-4337 EntryPoint v0.8, deployed at this address on Base (and every chain) by a deterministic deployer. */
const ENTRYPOINT_V08 = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108';

/** The paymaster's settings, as loadConfig's schema reads them (docs/configuration.md). */
export const PAYMASTER_SETTINGS = {
  /**
   * Gas paid by the shop for smart wallets' payments (ERC-4337, ERC-7677), by one sponsor
   * (below): the shop's verifying paymaster (ShopPaymaster.sol, deployed with
   * this signer's address) and the key the paymaster service signs sponsored operations with...
   */
  PAYMASTER_ADDRESS: optional(z.string().regex(ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte address')),
  PAYMASTER_SIGNER_KEY: optional(z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte private key')),
  /** ...or a hosted paymaster service (ERC-7677): its URL, its key when it takes one in a header, its sponsorship policy. */
  PAYMASTER_SERVICE_URL: optional(urlString),
  PAYMASTER_SERVICE_KEY: optional(z.string().regex(/^[\x21-\x7e]{8,4096}$/, "must be the provider's API key, without spaces")),
  PAYMASTER_POLICY_ID: optional(z.string().regex(/^[\x21-\x7e]{1,200}$/, "must be the provider's policy id, without spaces")),
  /** How long one call to the hosted paymaster service may take. */
  PAYMASTER_SERVICE_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** The ERC-4337 EntryPoint the paymaster is deposited in (v0.8's, the same address on every chain). */
  ENTRYPOINT_ADDRESS: z.string().regex(ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte address').default(ENTRYPOINT_V08),
  /** The most the shop pays for sponsored gas per UTC day, in ETH: the worst a stranger can cost it in a day. */
  PAYMASTER_DAILY_BUDGET_ETH: z
    .string()
    .regex(/^\d{1,6}(\.\d{1,18})?$/, 'must be an amount of ETH such as 0.01')
    .refine((v) => Number(v) > 0, 'must be more than 0 (unset the paymaster settings to pay no gas)')
    .default('0.01'),
  /** The most sponsored payments one account gets per UTC day. */
  PAYMASTER_SENDER_DAILY_LIMIT: z.coerce.number().int().min(1).max(1000).default(5),
  /** More smart-account factories, proxy implementations and proxy code hashes the paymaster sponsors (comma-separated). */
  PAYMASTER_ACCOUNT_FACTORIES: list(z.string().regex(ADDRESS_PATTERN, 'must be 0x-prefixed 20-byte addresses, separated by commas')),
  PAYMASTER_ACCOUNT_IMPLEMENTATIONS: list(z.string().regex(ADDRESS_PATTERN, 'must be 0x-prefixed 20-byte addresses, separated by commas')),
  PAYMASTER_ACCOUNT_PROXY_CODEHASHES: list(
    z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x-prefixed 32-byte hashes, separated by commas'),
  ),
};

/** The sponsor the paymaster service hands an operation to once the shop's own checks passed. */
export type SponsorConfig =
  | { kind: 'verifying'; address: string; signerKey: string }
  | {
      kind: 'hosted';
      /** The provider's ERC-7677 endpoint, key included when the provider takes it there. */
      url: string;
      /** Sent as `Authorization: Bearer <key>`, for a provider that takes its key in a header. */
      key?: string;
      /** Forwarded in the paymaster context, for a provider that takes a sponsorship policy there. */
      policyId?: string;
    };

/** Smart accounts named by what the chain shows of them: how they are made and what code they run. */
export interface WalletContracts {
  /** Factories whose deployment of an account (an operation's `factory`) the shop sponsors. */
  factories: string[];
  /** What an account's ERC-1967 proxy may point to, or an EIP-7702 account may delegate to. */
  implementations: string[];
  /** keccak256 of the runtime code of the ERC-1967 proxies the accounts are. */
  proxyCodeHashes: string[];
}

export interface PaymasterConfig {
  /** The ERC-4337 EntryPoint (v0.8) every sponsored operation goes through. */
  entryPoint: string;
  sponsor: SponsorConfig;
  /** The most the sponsorships of one UTC day may cost, in wei (PAYMASTER_DAILY_BUDGET_ETH). */
  dailyBudgetWei: bigint;
  /** The most sponsorships one account gets per UTC day (PAYMASTER_SENDER_DAILY_LIMIT). */
  senderDailyLimit: number;
  /** Wallets the shop sponsors besides its defaults (PAYMASTER_ACCOUNT_*). */
  extraWallets: WalletContracts;
  /** Local mode: the local chain's own smart accounts, instead of Base's wallets. */
  localWallets?: WalletContracts;
}

type PaymasterEnv = z.infer<z.ZodObject<typeof PAYMASTER_SETTINGS>>;

/** The budget, the per-account limit and the wallets every sponsor shares. */
export type SponsorshipRules = Omit<PaymasterConfig, 'entryPoint' | 'sponsor' | 'localWallets'>;

/** The rules and lists every sponsor shares, from the settings. */
export function sponsorshipRules(e: PaymasterEnv): SponsorshipRules {
  return {
    dailyBudgetWei: parseEther(e.PAYMASTER_DAILY_BUDGET_ETH),
    senderDailyLimit: e.PAYMASTER_SENDER_DAILY_LIMIT,
    extraWallets: {
      factories: e.PAYMASTER_ACCOUNT_FACTORIES,
      implementations: e.PAYMASTER_ACCOUNT_IMPLEMENTATIONS,
      proxyCodeHashes: e.PAYMASTER_ACCOUNT_PROXY_CODEHASHES,
    },
  };
}

/**
 * What is wrong with the paymaster settings. `serviceUrl`: PAYMASTER_SERVICE_URL once it parsed as
 * a URL (its scheme and port are checked then).
 */
export function paymasterProblems(isSet: (key: string) => boolean, serviceUrl: string | undefined): string[] {
  const problems: string[] = [];
  const own = isSet('PAYMASTER_ADDRESS') || isSet('PAYMASTER_SIGNER_KEY');
  const hosted = isSet('PAYMASTER_SERVICE_URL');
  if (isSet('PAYMASTER_ADDRESS') !== isSet('PAYMASTER_SIGNER_KEY')) {
    problems.push('PAYMASTER_ADDRESS and PAYMASTER_SIGNER_KEY must be set together (or neither, for no sponsored gas)');
  }
  if (own && hosted) {
    problems.push(
      "both the shop's own paymaster (PAYMASTER_ADDRESS, PAYMASTER_SIGNER_KEY) and a hosted one (PAYMASTER_SERVICE_URL) are set: the shop has one sponsor. Remove the hosted service's settings to pay from your own deposit, or the own paymaster's to pay through the provider",
    );
  }
  for (const key of ['PAYMASTER_SERVICE_KEY', 'PAYMASTER_POLICY_ID']) {
    if (isSet(key) && !hosted) problems.push(`${key} belongs to a hosted paymaster: set PAYMASTER_SERVICE_URL too, or remove it`);
  }
  if (serviceUrl) {
    const url = new URL(serviceUrl);
    if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) {
      problems.push(
        'PAYMASTER_SERVICE_URL must be https://: the shop sends the provider its key there. Plain http is only for a loopback host',
      );
    }
    const port = Number(url.port);
    if (port && fetchRefusesPort(port)) {
      problems.push(
        `PAYMASTER_SERVICE_URL uses port ${port}, which Node's fetch refuses to call (a "bad port" of the Fetch standard): use another port`,
      );
    }
  }
  return problems;
}

/** The paymaster settings loadConfig found valid (paymasterProblems returned none), or null when the shop pays no gas. */
export function paymasterConfig(e: PaymasterEnv): PaymasterConfig | null {
  const entryPoint = e.ENTRYPOINT_ADDRESS;
  if (e.PAYMASTER_SERVICE_URL) {
    const sponsor: SponsorConfig = { kind: 'hosted', url: e.PAYMASTER_SERVICE_URL };
    if (e.PAYMASTER_SERVICE_KEY) sponsor.key = e.PAYMASTER_SERVICE_KEY;
    if (e.PAYMASTER_POLICY_ID) sponsor.policyId = e.PAYMASTER_POLICY_ID;
    return { entryPoint, sponsor, ...sponsorshipRules(e) };
  }
  if (e.PAYMASTER_ADDRESS && e.PAYMASTER_SIGNER_KEY) {
    return {
      entryPoint,
      sponsor: { kind: 'verifying', address: e.PAYMASTER_ADDRESS, signerKey: e.PAYMASTER_SIGNER_KEY },
      ...sponsorshipRules(e),
    };
  }
  return null;
}
