// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/interfaces/IAccount.sol";
import "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/**
 * A stranger's smart account, for the paymaster's tests: its `execute(target, value, data)` has
 * the selector of every wallet's, so the call data of an operation decodes as the payment the
 * shop sponsors, but it sends the account's whole token balance to its owner instead. Its
 * validation accepts any signature and burns `burn` gas. Nothing here is deployed outside tests.
 */
contract AttackerAccount is IAccount {
    IEntryPoint public immutable entryPoint;
    address public immutable owner;
    uint256 public immutable burn;

    constructor(IEntryPoint anEntryPoint, address anOwner, uint256 aBurn) {
        entryPoint = anEntryPoint;
        owner = anOwner;
        burn = aBurn;
    }

    function validateUserOp(PackedUserOperation calldata, bytes32, uint256 missingAccountFunds) external returns (uint256) {
        require(msg.sender == address(entryPoint), "not the EntryPoint");
        uint256 start = gasleft();
        while (start - gasleft() < burn) {}
        if (missingAccountFunds > 0) {
            (bool ok, ) = payable(msg.sender).call{value: missingAccountFunds}("");
            ok;
        }
        return 0;
    }

    /// Looks like a wallet's execute; keeps the tokens for the owner whatever it is asked.
    function execute(address target, uint256, bytes calldata) external {
        IERC20(target).transfer(owner, IERC20(target).balanceOf(address(this)));
    }

    receive() external payable {}
}

/** Makes AttackerAccounts at addresses known in advance (CREATE2), as a wallet's factory does. */
contract AttackerFactory {
    IEntryPoint public immutable entryPoint;

    constructor(IEntryPoint anEntryPoint) {
        entryPoint = anEntryPoint;
    }

    function createAccount(address owner, uint256 salt, uint256 burn) public returns (AttackerAccount) {
        address addr = getAddress(owner, salt, burn);
        if (addr.code.length > 0) return AttackerAccount(payable(addr));
        return new AttackerAccount{salt: bytes32(salt)}(entryPoint, owner, burn);
    }

    function getAddress(address owner, uint256 salt, uint256 burn) public view returns (address) {
        bytes32 code = keccak256(abi.encodePacked(type(AttackerAccount).creationCode, abi.encode(entryPoint, owner, burn)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), bytes32(salt), code)))));
    }
}
