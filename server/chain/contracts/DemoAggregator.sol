// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title A Chainlink-style feed for the shop's local chain
/// @notice Answers AggregatorV3Interface's reads (decimals, description, latestRoundData) with what
///         its owner set: local mode's ETH/USD price and L2 sequencer uptime (0 up, 1 down), and the
///         tests' stale, incomplete and down rounds. With `updatedAt` 0 the round reports itself
///         updated at the current block (a demo feed that is never stale); otherwise as set.
contract DemoAggregator {
    address public immutable owner;
    uint8 public immutable decimals;
    string public description;

    uint80 private _roundId;
    int256 private _answer;
    uint256 private _startedAt;
    uint256 private _updatedAt;
    uint80 private _answeredInRound;

    constructor(uint8 decimals_, string memory description_, int256 answer, uint256 startedAt) {
        owner = msg.sender;
        decimals = decimals_;
        description = description_;
        setRound(1, answer, startedAt, 0, 1);
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    /// @notice A new round with `answer`, started and updated at the current block.
    function setAnswer(int256 answer) external {
        setRound(_roundId + 1, answer, block.timestamp, 0, _roundId + 1);
    }

    function setRound(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound) public {
        require(msg.sender == owner, "only the owner sets the feed");
        _roundId = roundId;
        _answer = answer;
        _startedAt = startedAt;
        _updatedAt = updatedAt;
        _answeredInRound = answeredInRound;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (_roundId, _answer, _startedAt, _updatedAt == 0 ? block.timestamp : _updatedAt, _answeredInRound);
    }
}
