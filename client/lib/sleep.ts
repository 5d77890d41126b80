/** Resolves after `ms` milliseconds (the checkout's waits between steps and retries). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
