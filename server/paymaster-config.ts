/**
 * Who pays smart wallets' gas (docs/payments.md §9), read by loadConfig: the shop's own verifying
 * paymaster (PAYMASTER_ADDRESS and PAYMASTER_SIGNER_KEY: a contract deposited in the EntryPoint and
 * the key that signs for it) or a hosted paymaster service (PAYMASTER_SERVICE_URL, with
 * PAYMASTER_SERVICE_KEY and PAYMASTER_POLICY_ID when the provider takes them). One or the other,
 * never both; neither: the shop pays no gas. The hosted service's URL and key are secrets (most
 * providers put the key in the URL): no problem reported here ever repeats them.
 */
import { fetchRefusesPort, isLoopbackHost } from './lib/hosts';

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

export interface PaymasterConfig {
  /** The ERC-4337 EntryPoint (v0.8) every sponsored operation goes through. */
  entryPoint: string;
  sponsor: SponsorConfig;
}

interface PaymasterEnv {
  PAYMASTER_ADDRESS?: string;
  PAYMASTER_SIGNER_KEY?: string;
  PAYMASTER_SERVICE_URL?: string;
  PAYMASTER_SERVICE_KEY?: string;
  PAYMASTER_POLICY_ID?: string;
  ENTRYPOINT_ADDRESS: string;
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
    return { entryPoint, sponsor };
  }
  if (e.PAYMASTER_ADDRESS && e.PAYMASTER_SIGNER_KEY) {
    return { entryPoint, sponsor: { kind: 'verifying', address: e.PAYMASTER_ADDRESS, signerKey: e.PAYMASTER_SIGNER_KEY } };
  }
  return null;
}
