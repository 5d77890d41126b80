import { LoaderCircle, Wallet } from 'lucide-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import { navItem } from '../../../components/ui/nav-item';
import { dismissToast } from '../../../components/ui/use-toast';
import { ADDRESS_ELLIPSIS, shortenAddress } from '../../../../common/shorten-address';
import { cn } from '../../../lib/utils';
import { useWallet } from '../context/wallet-provider';
import { WalletIcon } from './wallet-icon';

const loadDialogs = () => import('./wallet-dialogs');
const WalletDialogs = lazy(loadDialogs);

/**
 * The header's wallet control: 'Connect Wallet' ('Connect', without the icon, below
 * 640 px; 'Connect' with the icon below 768 px) opens the
 * chooser; while connecting a spinner and 'Connecting...' (a tap gives up waiting); once
 * connected the wallet's icon and the short address (0x7099...79C8), which opens the account
 * sheet with 'Disconnect'. The wallet code starts loading as soon as the shopper reaches for it.
 */
export function WalletButton() {
  const wallet = useWallet();
  const [accountOpen, setAccountOpen] = useState(false);
  const { prepare } = wallet;
  const warmUp = useCallback(() => {
    prepare();
    void loadDialogs().catch(() => undefined);
  }, [prepare]);
  const prefetch = { onPointerEnter: warmUp, onFocus: warmUp, onTouchStart: warmUp };
  // Mounted from the first opening on, so closing animates and reopening is instant.
  const [dialogsWanted, setDialogsWanted] = useState(false);
  if (!dialogsWanted && (wallet.chooserOpen || accountOpen)) setDialogsWanted(true);

  let control;
  if (wallet.status === 'connected' && wallet.address) {
    const shortAddress = shortenAddress(wallet.address);
    const cut = shortAddress.indexOf(ADDRESS_ELLIPSIS);
    const head = cut > 0 ? shortAddress.slice(0, cut) : shortAddress;
    const tail = cut > 0 ? shortAddress.slice(cut) : '';
    control = (
      <button
        type="button"
        data-testid="wallet-button"
        data-status="connected"
        data-wallet-connected=""
        aria-haspopup="dialog"
        title={wallet.address}
        onPointerEnter={() => void loadDialogs().catch(() => undefined)}
        onClick={() => {
          dismissToast(); // the toast area would cover the sheet's Disconnect button
          setAccountOpen(true);
        }}
        className={cn(navItem({ tone: 'soft' }), 'px-1.5 sm:px-3')}
      >
        <WalletIcon icon={wallet.walletIcon} className="size-5 rounded-md max-md:hidden" />
        {/* Below 768 px the short address takes two lines (0x7099 / ...79C8) so the header still
            fits the store name on a 390 px phone; the text stays one string for assistive tech. */}
        <span
          data-testid="wallet-address"
          className="grid text-left text-[11px] leading-[13px] font-bold tracking-tight tabular-nums md:flex md:text-sm md:leading-normal md:font-semibold md:tracking-normal"
        >
          <span>{head}</span>
          <span>{tail}</span>
        </span>
        <span className="sr-only">, wallet menu</span>
      </button>
    );
  } else if (wallet.status === 'connecting') {
    control = (
      <button
        type="button"
        data-testid="wallet-button"
        data-status="connecting"
        aria-busy
        title={wallet.silent ? 'Reconnecting your wallet' : 'Waiting for your wallet. Tap to stop waiting.'}
        onClick={() => {
          if (!wallet.silent) wallet.cancel();
        }}
        className={cn(navItem({ tone: 'muted' }), 'px-2.5 sm:px-3')}
      >
        <LoaderCircle aria-hidden className="motion-safe:animate-spin" />
        <span className="text-[13px] sm:text-sm">Connecting...</span>
      </button>
    );
  } else {
    control = (
      <button
        type="button"
        data-testid="wallet-button"
        data-status="disconnected"
        aria-haspopup="dialog"
        {...prefetch}
        aria-label="Connect Wallet"
        onClick={() => wallet.setChooserOpen(true)}
        className={cn(navItem(), 'border border-input px-3 sm:border-transparent')}
      >
        <Wallet aria-hidden className="max-sm:hidden" />
        {/* 'Connect' stays visible on a phone (the icon alone did not say what it does). */}
        <span>
          Connect<span className="max-md:hidden"> Wallet</span>
        </span>
      </button>
    );
  }

  return (
    <>
      {control}
      {dialogsWanted && (
        <Suspense fallback={null}>
          <WalletDialogs accountOpen={accountOpen} onAccountOpenChange={setAccountOpen} />
        </Suspense>
      )}
    </>
  );
}
