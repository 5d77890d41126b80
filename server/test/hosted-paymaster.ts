/**
 * A stand-in for a hosted ERC-7677 paymaster service (what Coinbase's or Pimlico's is to the shop):
 * an HTTP JSON-RPC server answering pm_getPaymasterStubData and pm_getPaymasterData for its own
 * verifying paymaster, a ShopPaymaster deployed under ITS OWN signer key, as a hosted verifying
 * paymaster does. It takes its key in the URL's path and a second one as a bearer header (each
 * refused without: 401), records every call it received, and can be told to refuse (a JSON-RPC
 * error), to hang, to drop the connection (down), to answer what is not JSON, to answer the wrong shape, to fail (HTTP 500), or to
 * hand out a stub that is already final.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { getAddress, Interface, toQuantity, Wallet, ZeroHash } from 'ethers';
import { paymasterData, type UserOperation } from '../modules/paymaster';

/**
 * 'sign': answers as most providers do (the gas limits in both answers); 'minimal': its final answer
 * is ERC-7677's least, `{ paymaster, paymasterData }`; 'revoked': refuses the shop's key (HTTP 401);
 * the others fail in their own way.
 */
export type HostedMode = 'sign' | 'minimal' | 'refuse' | 'revoked' | 'hang' | 'down' | 'garbage' | 'wrong-shape' | 'fail' | 'final-stub';

export interface HostedCall {
  method: string;
  params: unknown[];
  authorization: string | undefined;
}

export interface HostedPaymaster {
  /** Its endpoint, its key in the path (as Coinbase's carries it). */
  url: string;
  /** The key it also wants as `Authorization: Bearer …`. */
  key: string;
  /** The key in the URL. */
  urlKey: string;
  /** Every call that reached it with both keys, in order. */
  received: HostedCall[];
  /** How it answers from now on. */
  mode: HostedMode;
  /** Its paymaster's gas limits (what it signs and answers). */
  gas: { verificationGasLimit: bigint; postOpGasLimit: bigint };
  close(): Promise<void>;
}

const read = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startHostedPaymaster(opts: {
  /** Its ShopPaymaster, deployed with `signerKey`'s address and deposited in `entryPoint`. */
  paymaster: string;
  signerKey: string;
  entryPoint: string;
  chainId: number;
}): Promise<HostedPaymaster> {
  const signer = new Wallet(opts.signerKey);
  const urlKey = `url_${randomBytes(16).toString('hex')}`;
  const key = `hdr_${randomBytes(16).toString('hex')}`;
  const state = { mode: 'sign' as HostedMode };
  const received: HostedCall[] = [];
  const gas = { verificationGasLimit: 75_000n, postOpGasLimit: 0n };

  const server = createServer(async (req, res) => {
    const body = await read(req);
    const json = (status: number, payload: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, ...payload }));
    };
    if (req.method !== 'POST' || req.url !== `/rpc/${urlKey}` || req.headers.authorization !== `Bearer ${key}`) {
      json(401, { error: { code: -32001, message: 'unauthorized: unknown API key' } });
      return;
    }
    const call = JSON.parse(body) as { id: unknown; method: string; params: unknown[] };
    received.push({ method: call.method, params: call.params, authorization: req.headers.authorization });
    const stub = call.method === 'pm_getPaymasterStubData';
    switch (state.mode) {
      case 'hang':
        return; // never answers; close() ends the connection
      case 'down':
        req.socket.destroy();
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>502 Bad Gateway</body></html>');
        return;
      case 'wrong-shape':
        json(200, { result: { paymasterAndData: '0x1234' } });
        return;
      case 'fail':
        json(500, { error: { code: -32603, message: 'internal error' } });
        return;
      case 'revoked':
        json(401, { error: { code: -32001, message: 'unauthorized: API key revoked' } });
        return;
      case 'refuse':
        // A provider's words, with room to trim, and its key repeated in its own spelling (upper case,
        // broken over two lines): the shop must not pass on any of it.
        json(200, {
          error: {
            code: -32500,
            message: `  Sponsorship policy\n rejected this user operation for key ${urlKey.slice(0, 9).toUpperCase()}\n${urlKey.slice(9).toUpperCase()}: over the daily limit.   `,
          },
        });
        return;
    }
    const [op, entryPoint, chainId] = call.params as [UserOperation, string, string, unknown];
    if (getAddress(entryPoint) !== getAddress(opts.entryPoint) || chainId !== toQuantity(opts.chainId)) {
      json(200, { error: { code: -32602, message: 'unsupported EntryPoint or chain' } });
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const window = { validUntil: now + 600, validAfter: now - 60 };
    // The provider's paymaster is a ShopPaymaster too: it checks on chain that the account holds what the call transfers.
    const data = await paymasterData(
      op,
      { chainId: opts.chainId, paymaster: opts.paymaster, gas, signer },
      window,
      { ...transferOf(op.callData), codeHash: ZeroHash },
      stub && state.mode !== 'final-stub',
    );
    if (state.mode === 'minimal' && !stub) {
      json(200, { result: { paymaster: opts.paymaster, paymasterData: data } });
      return;
    }
    json(200, {
      result: {
        paymaster: opts.paymaster,
        paymasterData: data,
        // Written with leading zeros, as some providers do.
        paymasterVerificationGasLimit: `0x000${gas.verificationGasLimit.toString(16)}`,
        paymasterPostOpGasLimit: '0x00',
        ...(stub ? { isFinal: state.mode === 'final-stub', sponsor: { name: 'Hosted stand-in' } } : {}),
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rpc/${urlKey}`,
    key,
    urlKey,
    received,
    gas,
    get mode() {
      return state.mode;
    },
    set mode(mode: HostedMode) {
      state.mode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ACCOUNT = new Interface(['function execute(address target, uint256 value, bytes data)']);
const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

/** The token and amount of the transfer an account's `execute` call makes. */
function transferOf(callData: string): { token: string; amount: bigint } {
  const [token, , data] = ACCOUNT.decodeFunctionData('execute', callData) as unknown as [string, bigint, string];
  const [, amount] = ERC20.decodeFunctionData('transfer', data) as unknown as [string, bigint];
  return { token, amount };
}
