/**
 * The shop's paymaster: it pays the gas of smart wallets' payments (ERC-4337 user operations
 * sponsored through ERC-7677), for the exact payment of a checkout only.
 */
export { PaymasterService } from './service';
/** GET /api/checkout/:id/paymaster (the checkout's ticket) and POST /api/paymaster (the JSON-RPC service). */
export { paymasterRoutes } from './routes';
/** The admin's view: the paymaster's deposit left in the EntryPoint, the budget and the sponsorships per day (GET /api/admin/paymaster). */
export { SponsoredGasReport } from './sponsored-gas';
/** The background job that settles each sponsorship from the paymaster's UserOperationEvents. */
export { SponsorshipWatcher } from './sponsorship-watcher';
/** @internal A user operation as wallets send it, and its fields as the EntryPoint packs them (the tests build and submit them). */
export type { UserOperation } from './user-operation';
/** @internal How the EntryPoint packs an operation, and a verifying paymaster's signed data (the tests' stand-in for a hosted paymaster signs with it). */
export { packedFields, paymasterData } from './sign';
/** @internal How the shop prices a sponsored operation (the tests' wallets price theirs the same way). */
export { readNetworkFees, staticPreVerificationGas } from './gas-rules';
