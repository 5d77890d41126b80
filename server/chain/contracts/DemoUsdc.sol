// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title A USDC-like token for the shop's local chain
/// @notice Six decimals and the symbol USDC, like Circle's USDC on Base: what local mode's shoppers
///         pay with when they pay in dollars, swapped into POGS through the local POGS/USDC pool.
///         It exists only on the embedded development chain; each recipient starts with `amountEach`.
contract DemoUsdc is ERC20 {
    constructor(address[] memory recipients, uint256 amountEach) ERC20("USD Coin (local demo)", "USDC") {
        for (uint256 i = 0; i < recipients.length; i++) {
            _mint(recipients[i], amountEach);
        }
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }
}
