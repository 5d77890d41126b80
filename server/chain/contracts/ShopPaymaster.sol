// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/core/BasePaymaster.sol";
import "@account-abstraction/contracts/core/Helpers.sol";
import "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/**
 * The shop's own verifying paymaster (ERC-4337, EntryPoint v0.8): it pays the gas of exactly the
 * user operations the shop's paymaster service signed, and of no other. The service signs an
 * operation only after its own checks (a wallet it knows, one token transfer to the store wallet
 * for an open checkout's exact amount, gas priced from the network, within the shop's budget);
 * this contract checks the signature and the window it is valid in, so a signed operation cannot
 * be changed (any field) or used late. What can change after the signature is checked again when
 * the operation runs: the account must still hold the token amount it pays (POGS moved away make
 * the bundle fail, not the shop pay), and a deployed account must still have the code the service
 * checked (a wallet re-pointed to other code is refused). Both reads keep to the storage rules
 * bundlers enforce (ERC-7562): the sender's own code, and the token's balance slot of the sender
 * (for an account its operation deploys, a staked paymaster: addStake). Its gas comes from its
 * deposit in the EntryPoint (deposit(), withdrawTo() by the owner).
 *
 * paymasterAndData: paymaster (20 bytes) | verification gas (16) | post-op gas (16) |
 * validUntil (6) | validAfter (6) | token (20) | amount (32) | code hash (32, zero: the operation
 * deploys the account) | the signer's signature (65).
 */
contract ShopPaymaster is BasePaymaster {
    /// The key of the shop's paymaster service.
    address public immutable verifyingSigner;

    uint256 private constant VALID_TIMESTAMP_OFFSET = PAYMASTER_DATA_OFFSET;
    uint256 private constant TOKEN_OFFSET = VALID_TIMESTAMP_OFFSET + 12;
    uint256 private constant AMOUNT_OFFSET = TOKEN_OFFSET + 20;
    uint256 private constant CODE_HASH_OFFSET = AMOUNT_OFFSET + 32;
    uint256 private constant SIGNATURE_OFFSET = CODE_HASH_OFFSET + 32;

    /// What the service checked of the operation's payment when it signed.
    struct Payment {
        IERC20 token;
        uint256 amount;
        bytes32 codeHash;
    }

    constructor(IEntryPoint anEntryPoint, address aVerifyingSigner) BasePaymaster(anEntryPoint) {
        verifyingSigner = aVerifyingSigner;
    }

    /// What the signer signs (as an EIP-191 message): every field of the operation but its own signature and this paymaster's signature, on this chain, for this paymaster, within the window, with the payment it checked.
    function getHash(
        PackedUserOperation calldata userOp,
        uint48 validUntil,
        uint48 validAfter,
        Payment memory payment
    ) public view returns (bytes32) {
        bytes32 operation = keccak256(
            abi.encode(
                userOp.sender,
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.accountGasLimits,
                uint256(bytes32(userOp.paymasterAndData[PAYMASTER_VALIDATION_GAS_OFFSET:PAYMASTER_DATA_OFFSET])),
                userOp.preVerificationGas,
                userOp.gasFees
            )
        );
        return
            keccak256(
                abi.encode(operation, block.chainid, address(this), validUntil, validAfter, payment.token, payment.amount, payment.codeHash)
            );
    }

    function _validatePaymasterUserOp(
        PackedUserOperation calldata userOp,
        bytes32,
        uint256
    ) internal view override returns (bytes memory context, uint256 validationData) {
        (uint48 validUntil, uint48 validAfter, Payment memory payment, bytes calldata signature) = parsePaymasterAndData(
            userOp.paymasterAndData
        );
        // Checked for the stub's dummy signature too, so a bundler's gas estimate includes them.
        _checkPayment(userOp.sender, payment);
        bool failed = !_signedByService(getHash(userOp, validUntil, validAfter, payment), signature);
        return ("", _packValidationData(failed, validUntil, validAfter));
    }

    /// The account still has the code the service checked, and still holds the amount it pays.
    function _checkPayment(address sender, Payment memory payment) private view {
        require(payment.codeHash == bytes32(0) || sender.codehash == payment.codeHash, "ShopPaymaster: the account's code changed");
        require(payment.token.balanceOf(sender) >= payment.amount, "ShopPaymaster: the account no longer holds the amount");
    }

    function _signedByService(bytes32 hash, bytes calldata signature) private view returns (bool) {
        require(signature.length == 65, "ShopPaymaster: signature is not 65 bytes");
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(MessageHashUtils.toEthSignedMessageHash(hash), signature);
        return error == ECDSA.RecoverError.NoError && signer == verifyingSigner;
    }

    /// The window, the payment and the signature of paymasterAndData.
    function parsePaymasterAndData(
        bytes calldata paymasterAndData
    ) public pure returns (uint48 validUntil, uint48 validAfter, Payment memory payment, bytes calldata signature) {
        validUntil = uint48(bytes6(paymasterAndData[VALID_TIMESTAMP_OFFSET:VALID_TIMESTAMP_OFFSET + 6]));
        validAfter = uint48(bytes6(paymasterAndData[VALID_TIMESTAMP_OFFSET + 6:TOKEN_OFFSET]));
        payment.token = IERC20(address(bytes20(paymasterAndData[TOKEN_OFFSET:AMOUNT_OFFSET])));
        payment.amount = uint256(bytes32(paymasterAndData[AMOUNT_OFFSET:CODE_HASH_OFFSET]));
        payment.codeHash = bytes32(paymasterAndData[CODE_HASH_OFFSET:SIGNATURE_OFFSET]);
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }
}
