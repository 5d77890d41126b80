import { WalletAccountDialog } from './wallet-account-dialog';
import { WalletChooser } from './wallet-chooser';

/**
 * The chooser and the account sheet, in their own chunk: the header loads them when the shopper
 * reaches for the wallet control, not with the shop's first page.
 */
export default function WalletDialogs({
  accountOpen,
  onAccountOpenChange,
}: {
  accountOpen: boolean;
  onAccountOpenChange: (open: boolean) => void;
}) {
  return (
    <>
      <WalletChooser />
      <WalletAccountDialog open={accountOpen} onOpenChange={onAccountOpenChange} />
    </>
  );
}
