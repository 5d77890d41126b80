/**
 * A JSON-RPC error of the paymaster service: invalid params (-32602), an unknown method (-32601),
 * a refusal (-32001: the shop's own checks, or the hosted sponsor's), or a part that did not answer
 * (-32603: the chain, the hosted sponsor; try again). `reason` names it in the answer's data, the
 * log and the metric.
 */
export class PaymasterError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}
