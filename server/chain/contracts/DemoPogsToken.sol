// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title Demo $POGS for the shop's local chain
/// @notice A plain 18-decimal ERC-20 like the real token on Base: `transfer` emits the standard
///         Transfer event the shop's payment verification and chain watcher read. It exists only
///         on the embedded development chain; each recipient starts with `amountEach`.
contract DemoPogsToken is ERC20 {
    constructor(address[] memory recipients, uint256 amountEach) ERC20("POGS (local demo)", "POGS") {
        for (uint256 i = 0; i < recipients.length; i++) {
            _mint(recipients[i], amountEach);
        }
    }
}
