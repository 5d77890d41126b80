// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface IUniswapV3PoolSwap {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

/// @title What a stranger trades a Uniswap v3 pool with in the tests
/// @notice Swaps on a pool directly and pays it from the caller's approved tokens in the swap
///         callback: the price-reference tests push the pool for one block, or for minutes.
contract PoolSwapper {
    uint160 private constant MIN_SQRT_RATIO = 4295128739;
    uint160 private constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    /// @notice Sells `amountIn` of token0 (zeroForOne) or token1 into `pool`, sending what it buys to the caller.
    function swap(address pool, bool zeroForOne, uint256 amountIn) external {
        IUniswapV3PoolSwap(pool).swap(
            msg.sender,
            zeroForOne,
            int256(amountIn),
            zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1,
            abi.encode(pool, msg.sender)
        );
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        (address pool, address payer) = abi.decode(data, (address, address));
        require(msg.sender == pool, "only the pool being swapped");
        if (amount0Delta > 0) IERC20(IUniswapV3PoolSwap(pool).token0()).transferFrom(payer, pool, uint256(amount0Delta));
        if (amount1Delta > 0) IERC20(IUniswapV3PoolSwap(pool).token1()).transferFrom(payer, pool, uint256(amount1Delta));
    }
}
