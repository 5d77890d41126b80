// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// ERC-1271: a contract's answer to "is this signature yours?".
interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/**
 * Whether `signer` signed `hash`, for every kind of account (ERC-6492's order of checks): a smart
 * account not deployed yet, a deployed one (ERC-1271) and a plain key (ecrecover).
 *
 * It is never deployed. Its creation code with the constructor's arguments is the data of an
 * eth_call without a `to`: the node runs the constructor, which returns one byte (0x01 valid,
 * 0x00 not) where a constructor would return the code to deploy. Whatever it does on the way (the
 * factory call of an ERC-6492 signature deploys the account) is a simulation, and the node keeps
 * none of it. A signature it cannot read (an ERC-6492 wrapper that does not decode) reverts.
 */
contract SignatureValidator {
    /// What ends every ERC-6492 signature: abi.encode(factory, factoryCalldata, signature) ++ this.
    bytes32 private constant ERC6492_SUFFIX = 0x6492649264926492649264926492649264926492649264926492649264926492;

    constructor(address signer, bytes32 hash, bytes memory signature) {
        bool valid = _isValid(signer, hash, signature);
        assembly ("memory-safe") {
            mstore(0, valid)
            return(31, 1)
        }
    }

    function _isValid(address signer, bytes32 hash, bytes memory signature) private returns (bool) {
        if (_isWrapped(signature)) {
            (address factory, bytes memory factoryCalldata, bytes memory inner) = _unwrap(signature);
            // Deployed since it signed: the account as it is now decides (its keys may have changed).
            if (signer.code.length > 0 && _accepts(signer, hash, inner)) return true;
            // Not deployed: the factory call deploys it. Deployed but refusing: the call is the one
            // that makes it ready to check signatures (a migration, say), and it is asked again.
            (bool called, ) = factory.call(factoryCalldata);
            return called && signer.code.length > 0 && _accepts(signer, hash, inner);
        }
        // Code decides before ecrecover: a contract's signature may also recover to some key.
        if (signer.code.length > 0) return _accepts(signer, hash, signature);
        return _recovers(signer, hash, signature);
    }

    function _isWrapped(bytes memory signature) private pure returns (bool) {
        uint256 length = signature.length;
        if (length < 32) return false;
        bytes32 tail;
        assembly ("memory-safe") {
            // The last 32 bytes: the data starts 32 bytes after `signature` (its length word).
            tail := mload(add(signature, length))
        }
        return tail == ERC6492_SUFFIX;
    }

    /// The factory, its calldata and the account's own signature. `signature` is shortened in place.
    function _unwrap(bytes memory signature) private pure returns (address, bytes memory, bytes memory) {
        assembly ("memory-safe") {
            mstore(signature, sub(mload(signature), 32))
        }
        return abi.decode(signature, (address, bytes, bytes));
    }

    /// ERC-1271: the account answers the magic value (the function's selector); anything else, a revert included, is a no.
    function _accepts(address account, bytes32 hash, bytes memory signature) private view returns (bool) {
        (bool ok, bytes memory answer) = account.staticcall(abi.encodeCall(IERC1271.isValidSignature, (hash, signature)));
        return ok && answer.length >= 32 && bytes32(answer) == bytes32(IERC1271.isValidSignature.selector);
    }

    /// A plain key's signature: 65 bytes (r, s, v with v 27 or 28) that recover to `signer`.
    function _recovers(address signer, bytes32 hash, bytes memory signature) private pure returns (bool) {
        if (signature.length != 65) return false;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v != 27 && v != 28) return false;
        address recovered = ecrecover(hash, v, r, s);
        return recovered != address(0) && recovered == signer;
    }
}
