/**
 * The Demo Wallet's JSON-RPC endpoint, mounted ONLY with the embedded local chain: a newcomer can
 * buy with no extension installed. The browser announces it through EIP-6963 like any wallet;
 * here every call acts as one unlocked dev account, and only wallet-ish and read methods pass.
 * A transaction it sends is whatever the page asks (a POGS transfer, or paying with ETH or USDC:
 * the approve and the swap, each with the gas the page estimated), always from that account; it
 * offers no batch (wallet_sendCalls), so the page sends a swap's calls in turn, as a plain key does.
 */
import { Router } from '@koa/router';
import { BASE_CHAIN_ID_HEX } from '../../common/chain';

const READ_METHODS = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getCode',
  'eth_getLogs',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'net_version',
]);

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}
type RpcAnswer = { result: unknown } | { error: { code: number; message: string } };

/** How long the chain may take to answer one call before the page is told the wallet failed. */
const CHAIN_TIMEOUT_MS = 15_000;

export function demoWalletRoutes(opts: { rpcUrl: string; account: string; timeoutMs?: number }): Router {
  const router = new Router();
  const account = opts.account;

  async function forward(method: string, params: unknown[]): Promise<RpcAnswer> {
    let body: { result?: unknown; error?: { code: number; message: string } };
    try {
      const res = await fetch(opts.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? CHAIN_TIMEOUT_MS),
      });
      body = (await res.json()) as typeof body;
    } catch {
      // The local chain stopped or hangs: a wallet error the page shows, not a 500.
      return { error: { code: -32603, message: 'The Demo Wallet cannot reach the local chain' } };
    }
    return body.error ? { error: body.error } : { result: body.result };
  }

  async function answer(method: string, params: unknown[]): Promise<RpcAnswer> {
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [account] };
      case 'eth_chainId':
        return { result: BASE_CHAIN_ID_HEX };
      case 'wallet_switchEthereumChain': {
        const chainId = (params[0] as { chainId?: string } | undefined)?.chainId;
        return chainId?.toLowerCase() === BASE_CHAIN_ID_HEX
          ? { result: null }
          : { error: { code: 4902, message: `The Demo Wallet only knows chain ${BASE_CHAIN_ID_HEX}` } };
      }
      case 'wallet_addEthereumChain':
      case 'wallet_revokePermissions':
        return { result: null };
      case 'eth_sendTransaction': {
        const tx = (params[0] ?? {}) as Record<string, unknown>;
        return forward(method, [{ ...tx, from: account }]);
      }
      case 'personal_sign': {
        // [message, address]: it can only sign as the demo account.
        return forward(method, [params[0], account]);
      }
      case 'eth_signTypedData_v4':
        return forward(method, [account, params[1]]);
      default:
        if (READ_METHODS.has(method)) return forward(method, params);
        return { error: { code: 4200, message: `The Demo Wallet does not support ${method}` } };
    }
  }

  router.post('/api/dev/wallet', async (ctx) => {
    const req = ((ctx.request as { body?: unknown }).body ?? {}) as RpcRequest;
    const id = req.id ?? null;
    ctx.set('Cache-Control', 'no-store');
    if (typeof req.method !== 'string' || (req.params !== undefined && !Array.isArray(req.params))) {
      ctx.status = 400;
      ctx.body = { jsonrpc: '2.0', id, error: { code: -32600, message: 'Send {"jsonrpc":"2.0","id":1,"method":"…","params":[…]}' } };
      return;
    }
    ctx.body = { jsonrpc: '2.0', id, ...(await answer(req.method, (req.params as unknown[]) ?? [])) };
  });
  return router;
}
