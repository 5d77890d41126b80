// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/core/BasePaymaster.sol";
import "@account-abstraction/contracts/core/Helpers.sol";
import "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/**
 * The shop's own verifying paymaster (ERC-4337, EntryPoint v0.8): it pays the gas of exactly the
 * user operations the shop's paymaster service signed, and of no other. The service signs an
 * operation only after its own checks (one token transfer to the store wallet, for an open
 * checkout's exact amount, within the shop's gas limits); this contract checks the signature and
 * the window it is valid in, so a signed operation cannot be changed (any field) or used late.
 * Its gas comes from its deposit in the EntryPoint (deposit(), withdrawTo() by the owner).
 *
 * paymasterAndData: paymaster (20 bytes) | verification gas (16) | post-op gas (16) |
 * validUntil (6) | validAfter (6) | the signer's signature (65).
 */
contract ShopPaymaster is BasePaymaster {
    /// The key of the shop's paymaster service.
    address public immutable verifyingSigner;

    uint256 private constant VALID_TIMESTAMP_OFFSET = PAYMASTER_DATA_OFFSET;
    uint256 private constant SIGNATURE_OFFSET = VALID_TIMESTAMP_OFFSET + 12;

    constructor(IEntryPoint anEntryPoint, address aVerifyingSigner) BasePaymaster(anEntryPoint) {
        verifyingSigner = aVerifyingSigner;
    }

    /// What the signer signs (as an EIP-191 message): every field of the operation but its own signature and this paymaster's signature, on this chain, for this paymaster, within the window.
    function getHash(PackedUserOperation calldata userOp, uint48 validUntil, uint48 validAfter) public view returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    userOp.sender,
                    userOp.nonce,
                    keccak256(userOp.initCode),
                    keccak256(userOp.callData),
                    userOp.accountGasLimits,
                    uint256(bytes32(userOp.paymasterAndData[PAYMASTER_VALIDATION_GAS_OFFSET:PAYMASTER_DATA_OFFSET])),
                    userOp.preVerificationGas,
                    userOp.gasFees,
                    block.chainid,
                    address(this),
                    validUntil,
                    validAfter
                )
            );
    }

    function _validatePaymasterUserOp(
        PackedUserOperation calldata userOp,
        bytes32,
        uint256
    ) internal view override returns (bytes memory context, uint256 validationData) {
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) = parsePaymasterAndData(userOp.paymasterAndData);
        require(signature.length == 65, "ShopPaymaster: signature is not 65 bytes");
        bytes32 hash = MessageHashUtils.toEthSignedMessageHash(getHash(userOp, validUntil, validAfter));
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature);
        bool failed = error != ECDSA.RecoverError.NoError || signer != verifyingSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }

    /// The window and the signature of paymasterAndData.
    function parsePaymasterAndData(
        bytes calldata paymasterAndData
    ) public pure returns (uint48 validUntil, uint48 validAfter, bytes calldata signature) {
        validUntil = uint48(bytes6(paymasterAndData[VALID_TIMESTAMP_OFFSET:VALID_TIMESTAMP_OFFSET + 6]));
        validAfter = uint48(bytes6(paymasterAndData[VALID_TIMESTAMP_OFFSET + 6:SIGNATURE_OFFSET]));
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }
}
