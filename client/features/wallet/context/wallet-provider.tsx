import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { dismissToast, toast } from '../../../components/ui/use-toast';
import { readLastWalletId } from '../../../web3/wallet-ids';
import type { Eip1193Provider, WalletConfig } from '../../../web3/types';
import { loadWeb3 } from '../../../web3/load-web3';
import { publicExplorerUrl } from '../../../lib/explorer-url';
import { useHydrated } from '../../../lib/use-hydrated';
import type { WalletController, WalletOption, WalletSnapshot } from '../../../web3';

export type WalletStatus = WalletSnapshot['status'];

export interface WalletContextValue {
  status: WalletStatus;
  /** Checksummed address of the connected account, else null. */
  address: string | null;
  /** The connected wallet's EIP-1193 provider (wrap in ethers' BrowserProvider to pay). */
  provider: Eip1193Provider | null;
  walletName: string | null;
  walletIcon: string;
  walletId: string | null;
  /** The current 'connecting' is a silent reconnect of the wallet used last. */
  silent: boolean;
  wallets: readonly WalletOption[];
  /** True until the wallet code has loaded and the first discovery wait is over. */
  discovering: boolean;
  walletConnectAvailable: boolean;
  /** Block explorer for the connected address; null in local mode (its chain is not public). */
  explorerUrl: string | null;
  /** The wallet code failed to load (offline, or an old page after a release). */
  loadFailed: boolean;
  connect: (walletId: string) => Promise<void>;
  disconnect: () => Promise<void>;
  /** Stops waiting for the wallet's answer. */
  cancel: () => void;
  /** Starts loading the wallet code (on hover/focus of the control, before the tap). */
  prepare: () => void;
  /** The wallet chooser (header control) open state; anyone may open it. */
  chooserOpen: boolean;
  setChooserOpen: (open: boolean) => void;
}

const WalletContext = createContext<WalletContextValue | null>(null);

function idleSnapshot(restoring: boolean): WalletSnapshot {
  return {
    status: restoring ? 'connecting' : 'disconnected',
    address: null,
    walletId: null,
    walletName: null,
    walletIcon: '',
    provider: null,
    silent: restoring,
    wallets: [],
    discovering: true,
    walletConnectAvailable: false,
  };
}

const noopSubscribe = () => () => undefined;

/**
 * The wallet session for the app. The wallet code loads
 * lazily: at once only for a returning shopper (silent reconnect), otherwise when the shopper
 * reaches for the wallet control. Wallet notices become toasts.
 */
export function WalletProvider({ config, children }: { config: WalletConfig | null; children: ReactNode }) {
  const [returning] = useState(() => readLastWalletId() !== null);
  // While the browser hydrates the server's HTML (which knows no wallet) the control shows what
  // the server rendered; the silent reconnect of a returning shopper shows right after.
  const hydrated = useHydrated();
  const restoring = returning && hydrated;
  const idle = useMemo(() => idleSnapshot(restoring), [restoring]);
  const [controller, setController] = useState<WalletController | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [chooserOpen, setChooserOpenState] = useState(false);

  const prepare = useCallback(() => {
    loadWeb3().then(
      (web3) => {
        setLoadFailed(false);
        setController(web3.getWalletController());
      },
      (error: unknown) => {
        console.warn('The wallet code could not be loaded', error);
        setLoadFailed(true);
      },
    );
  }, []);

  const setChooserOpen = useCallback(
    (open: boolean) => {
      if (open) {
        prepare();
        // A bottom sheet: the toast area would cover its last rows.
        dismissToast();
      }
      setChooserOpenState(open);
    },
    [prepare],
  );

  // A returning shopper: load now and reconnect without a prompt.
  useEffect(() => {
    if (restoring) prepare();
  }, [restoring, prepare]);

  useEffect(() => {
    if (controller && config) controller.configure(config);
  }, [controller, config]);

  useEffect(() => {
    if (!controller) return;
    return controller.onNotice((notice) => toast(notice));
  }, [controller]);

  // Opening the chooser asks wallets to announce again (one may have been enabled meanwhile).
  useEffect(() => {
    if (chooserOpen && controller) controller.rediscover();
  }, [chooserOpen, controller]);

  const snapshot = useSyncExternalStore(controller?.subscribe ?? noopSubscribe, controller?.getSnapshot ?? (() => idle), () => idle);
  // Until the config arrives the controller has not started: still "restoring" for a return visit.
  const effective = controller && !config && restoring ? idle : snapshot;

  const connect = useCallback(async (walletId: string) => {
    const web3 = await loadWeb3();
    await web3.getWalletController().connect(walletId);
  }, []);
  const disconnect = useCallback(async () => {
    await controller?.disconnect();
  }, [controller]);
  const cancel = useCallback(() => controller?.cancel(), [controller]);

  const value = useMemo<WalletContextValue>(
    () => ({
      status: effective.status,
      address: effective.address,
      provider: effective.provider,
      walletName: effective.walletName,
      walletIcon: effective.walletIcon,
      walletId: effective.walletId,
      silent: effective.silent,
      wallets: effective.wallets,
      discovering: !controller || !config || effective.discovering,
      walletConnectAvailable: effective.walletConnectAvailable,
      explorerUrl: config ? publicExplorerUrl(config) : null,
      loadFailed,
      connect,
      disconnect,
      cancel,
      prepare,
      chooserOpen,
      setChooserOpen,
    }),
    [effective, controller, config, loadFailed, connect, disconnect, cancel, prepare, chooserOpen, setChooserOpen],
  );

  return <WalletContext.Provider value={value}>{children}</WalletContext.Provider>;
}

/** The wallet session: { status, address, provider, walletName, connect(walletId), disconnect() … }. */
export function useWallet(): WalletContextValue {
  const value = useContext(WalletContext);
  if (!value) throw new Error('useWallet must be used inside <WalletProvider>');
  return value;
}
