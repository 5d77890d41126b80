import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { AttentionItem } from '../../../../common/payments-desk';
import { shortenAddress } from '../../../../common/shorten-address';
import { toast } from '../../../components/ui/use-toast';
import { useConfig } from '../../../lib/public-config';
import { loadWeb3 } from '../../../web3/load-web3';
import { toWalletConfig, useWallet } from '../../wallet';
import { refreshAfterDeskWrite } from '../api/admin-cache';
import { handleAdminSessionLoss } from '../api/admin-session';
import { prepareRefund, recordRefund } from '../api/record-refund';
import { sentRefunds } from './use-sent-refund';
import { recordSentRefund, runRefund, type RefundDeps, type RefundPlan, type RefundStep } from '../lib/run-refund';
import type { SentRefund } from '../lib/sent-refunds';

/** One click's work: send a refund from the store wallet, or have the server check one already sent. */
type RefundWork = { kind: 'send'; plan: RefundPlan } | { kind: 'check'; sent: SentRefund };

/**
 * The refund as one react-query mutation per click (runRefund's steps, or recordSentRefund's for
 * "Check again"): its status is the dialog's idle/pending/error/success; `step` only says which
 * step a pending refund is at. `start` runs one refund of a transfer at a time, whatever is clicked
 * how often: `isPending` reaches the screen a task after `mutate`, too late for a double click's
 * second click, while the mutation cache counts it at once.
 */
export function useRefundMutation(item: AttentionItem) {
  const queryClient = useQueryClient();
  const { data: config, isError: configFailed } = useConfig();
  const wallet = useWallet();
  const walletConfig = useMemo(() => toWalletConfig(config, configFailed), [config, configFailed]);
  const [step, setStep] = useState<RefundStep>('preparing');
  const mutationKey = ['admin', 'payments', 'refund', item.transferId];

  const deps: RefundDeps = {
    connectToken: async () => {
      if (!walletConfig || !config?.tokenAddress || !wallet.provider) throw new Error('The shop’s token is not configured.');
      const web3 = await loadWeb3();
      await web3.ensureBaseNetwork(wallet.provider, { rpcUrl: walletConfig.chainRpcUrl, explorerUrl: walletConfig.explorerUrl });
      return web3.createTokenPayment(wallet.provider, config.tokenAddress);
    },
    keepSent: (sent) => sentRefunds().keep(sent),
    forgetSent: (transferId) => sentRefunds().forget(transferId),
    prepare: (transferId, amount) => prepareRefund(transferId, amount),
    record: (transferId, request) => recordRefund(transferId, request, { onWaiting: () => setStep('waiting-confirmations') }),
    step: setStep,
    now: () => new Date(),
  };

  const mutation = useMutation({
    mutationKey,
    mutationFn: (work: RefundWork) => (work.kind === 'send' ? runRefund(work.plan, deps) : recordSentRefund(work.sent, deps)),
    onSuccess: (outcome) => {
      if (outcome.kind === 'recorded') {
        toast({ title: 'Refund verified', description: `${outcome.sent.amount} POG to ${shortenAddress(outcome.sent.to)}` });
      }
      if (outcome.kind !== 'not-sent') void refreshAfterDeskWrite(queryClient);
    },
    onError: (error) => void handleAdminSessionLoss(queryClient, error),
  });

  const start = (work: RefundWork) => {
    if (queryClient.isMutating({ mutationKey, exact: true }) > 0) return;
    // The first step's label in this click's render, not the last run's until the pending state arrives.
    setStep(work.kind === 'send' ? 'preparing' : 'verifying');
    mutation.mutate(work);
  };

  return { mutation, step, start };
}
