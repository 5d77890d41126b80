import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';

/**
 * One Lighthouse run (performance only) on `url` through the Chromium at `port`. Lighthouse now
 * and then loses a run's trace (NO_NAVSTART): such a run is made again, three times at most.
 */
export async function runLighthouse(port: number, url: string): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const error = result.lhr.runtimeError;
    if (!error) return result.lhr;
    const reason = `Lighthouse on ${url}: ${error.code} ${error.message}`;
    if (attempt > 3) throw new Error(reason);
    console.error(`${reason}; running it again`);
  }
}
