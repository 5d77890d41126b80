import { CircleCheck, LoaderCircle, PenLine, ShieldCheck } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { shortenAddress } from '../../../../common/shorten-address';
import { useSignIn, type SigningWallet } from '../../auth';
import { OrdersStateCard } from './orders-states';

/**
 * The one-tap sign-in before the order history: why it is asked, and the button that
 * has the wallet sign the server's message. A refusal shows a toast and the step stays.
 */
export function SignInStep({ signer }: { signer: SigningWallet }) {
  const signIn = useSignIn();
  return (
    <OrdersStateCard icon={<ShieldCheck aria-hidden />} data-testid="orders-sign-in">
      <h1 className="text-xl font-bold">Sign in to view your orders</h1>
      <p className="text-sm text-muted-foreground">
        Payments are public on the blockchain, so an address alone doesn&apos;t open an order history. Signing a message proves{' '}
        <span className="font-mono font-semibold text-foreground" title={signer.address}>
          {shortenAddress(signer.address)}
        </span>{' '}
        is your wallet.
      </p>
      <ul className="grid gap-1.5 text-left text-sm">
        <li className="flex items-start gap-2">
          <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-green-700" />
          Free: no transaction, no gas.
        </li>
        <li className="flex items-start gap-2">
          <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-green-700" />
          Once: this browser stays signed in.
        </li>
      </ul>
      <Button
        size="lg"
        className="mt-2 w-full"
        disabled={signIn.isPending}
        onClick={() => signIn.mutate(signer)}
        data-testid="orders-sign-in-button"
      >
        {signIn.isPending ? <LoaderCircle aria-hidden className="motion-safe:animate-spin" /> : <PenLine aria-hidden />}
        {signIn.isPending ? 'Check your wallet...' : 'Sign in with your wallet'}
      </Button>
    </OrdersStateCard>
  );
}
