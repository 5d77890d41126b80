// Checks the bad-port list against the Node that runs the tests: fetch refuses each listed port
// before connecting, and a sample of other ports gets as far as a connection attempt.
import { describe, expect, it } from 'vitest';
import { fetchRefusesPort } from './hosts';

/** Every port the configuration counts as refused by fetch. */
const badPorts = Array.from({ length: 65_535 }, (_, i) => i + 1).filter(fetchRefusesPort);

async function refusal(port: number): Promise<string | null> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
    return null;
  } catch (err) {
    return String((err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message);
  }
}

describe("Node's fetch bad ports", () => {
  it('refuses every port on the list with "bad port"', async () => {
    const answers = await Promise.all(badPorts.map(async (port) => [port, await refusal(port)] as const));
    expect(answers.filter(([, reason]) => reason !== 'bad port')).toEqual([]);
  });

  it('tries the ports around them', async () => {
    const others = badPorts.flatMap((p) => [p - 1, p + 1]).filter((p) => p > 0 && !badPorts.includes(p));
    const answers = await Promise.all(others.map(async (port) => [port, await refusal(port)] as const));
    expect(answers.filter(([, reason]) => reason === 'bad port')).toEqual([]);
  });
});
