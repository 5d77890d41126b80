// Shopify's cost-based rate limit: a bucket of points that refills continuously at restoreRate
// per second. A query is charged its requested cost up front and refunded the difference once
// its actual cost is known.

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export class LeakyBucket {
  private available: number;
  private lastRefill: number;

  constructor(
    readonly maximumAvailable: number,
    readonly restoreRate: number,
    private readonly now: () => number = Date.now,
  ) {
    this.available = maximumAvailable;
    this.lastRefill = now();
  }

  private refill(): void {
    const t = this.now();
    // A clock that goes backwards (tests resetting it) must not drain the bucket.
    const elapsedSeconds = Math.max(0, t - this.lastRefill) / 1000;
    this.available = Math.min(this.maximumAvailable, this.available + elapsedSeconds * this.restoreRate);
    this.lastRefill = t;
  }

  /** Deducts `cost` and returns true, or returns false and leaves the bucket untouched. */
  tryTake(cost: number): boolean {
    this.refill();
    if (cost > this.available) return false;
    this.available -= cost;
    return true;
  }

  refund(points: number): void {
    this.refill();
    this.available = Math.min(this.maximumAvailable, this.available + Math.max(0, points));
  }

  status(): ThrottleStatus {
    this.refill();
    return {
      maximumAvailable: this.maximumAvailable,
      // Shopify reports whole points; flooring never claims capacity that is not there yet.
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.restoreRate,
    };
  }

  reset(): void {
    this.available = this.maximumAvailable;
    this.lastRefill = this.now();
  }
}
