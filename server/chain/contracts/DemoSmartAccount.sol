// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/accounts/SimpleAccount.sol";
import "@openzeppelin/contracts/interfaces/IERC1271.sol";
import "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import "@openzeppelin/contracts/utils/Create2.sol";

/**
 * A smart account of the kind Base's smart wallets give their users, for the local chain and the
 * tests: an ERC-4337 account (eth-infinitism's SimpleAccount: one owner key, calls through the
 * EntryPoint or from the owner) that also answers ERC-1271 for its owner's signatures, so it can
 * sign in with Ethereum once deployed, and through ERC-6492 before.
 */
contract DemoSmartAccount is SimpleAccount, IERC1271 {
    constructor(IEntryPoint anEntryPoint) SimpleAccount(anEntryPoint) {}

    /// The owner's signature of `hash` is the account's.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view override returns (bytes4) {
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature);
        return error == ECDSA.RecoverError.NoError && signer == owner ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }
}

/**
 * Deploys DemoSmartAccounts at addresses known before they exist (CREATE2 over the owner and a
 * salt): the counterfactual account a wallet shows before its first transaction. Anyone may
 * deploy an account for any owner (as Coinbase's smart wallet factory lets them): the owner alone
 * controls it either way.
 */
contract DemoSmartAccountFactory {
    DemoSmartAccount public immutable accountImplementation;

    constructor(IEntryPoint anEntryPoint) {
        accountImplementation = new DemoSmartAccount(anEntryPoint);
    }

    /// The account of `owner` with `salt`, deployed now if it is not yet.
    function createAccount(address owner, uint256 salt) public returns (DemoSmartAccount) {
        address addr = getAddress(owner, salt);
        if (addr.code.length > 0) return DemoSmartAccount(payable(addr));
        return DemoSmartAccount(payable(new ERC1967Proxy{salt: bytes32(salt)}(address(accountImplementation), _init(owner))));
    }

    /// The address createAccount(owner, salt) deploys to.
    function getAddress(address owner, uint256 salt) public view returns (address) {
        bytes memory code = abi.encodePacked(type(ERC1967Proxy).creationCode, abi.encode(address(accountImplementation), _init(owner)));
        return Create2.computeAddress(bytes32(salt), keccak256(code));
    }

    function _init(address owner) private pure returns (bytes memory) {
        return abi.encodeCall(SimpleAccount.initialize, (owner));
    }
}
