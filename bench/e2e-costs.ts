// Where the e2e layer's time goes: a Playwright reporter that adds up, over a run, the start-up
// (the built server up, the worker and its browser started), each test's fixtures (a browser
// context, the test wallet, the admin's session…), its Playwright calls by kind (navigations,
// clicks, waits), its assertions' waits, and the rest (the test's own code: calls to the chain or the
// API from Node, timers). Figures only, nothing asserted: playwright.config.ts prints them after
// every e2e run, under the list of tests.
import type { FullResult, Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';

/** A name for a Playwright call's kind from its step title: 'Navigate to "/"' → 'Navigate', 'Wait for load state' → 'Wait for'. */
function callKind(title: string): string {
  const words = title.split(/[ "(]/).filter(Boolean);
  return words[0] === 'Wait' ? 'Wait for' : (words[0] ?? title);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

class E2eCosts implements Reporter {
  private readonly started = Date.now();
  private firstTestAt = 0;
  private tests = 0;
  private readonly totals = new Map<string, number>();
  private readonly bySpec = new Map<string, number>();
  private readonly slowest: { title: string; ms: number }[] = [];
  /** Assertions and Playwright calls by where they are in the specs: their time in all and how many ran. */
  private readonly byLine = new Map<string, { title: string; ms: number; count: number }>();

  private add(key: string, ms: number) {
    this.totals.set(key, (this.totals.get(key) ?? 0) + ms);
  }

  onTestBegin() {
    this.firstTestAt ||= Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult) {
    this.tests++;
    const spec = test.location.file.replace(/^.*\/e2e\//, 'e2e/');
    this.bySpec.set(spec, (this.bySpec.get(spec) ?? 0) + result.duration);
    this.slowest.push({ title: `${spec} › ${test.title} [${test.parent.project()?.name ?? ''}]`, ms: result.duration });
    let counted = 0;
    for (const step of result.steps) {
      counted += step.duration;
      this.addStep(step);
    }
    this.add('test code (Node: chain and API calls, timers)', Math.max(0, result.duration - counted));
  }

  /** A test's top-level step: hooks by the fixtures they set up, calls by kind, assertions together. */
  private addStep(step: TestStep) {
    if (step.category === 'expect' || step.category === 'pw:api') this.noteWait(step);
    if (step.category === 'hook') {
      let fixtures = 0;
      for (const child of step.steps) {
        fixtures += child.duration;
        this.add(`${step.title} › ${child.title}`, child.duration);
      }
      this.add(`${step.title} › other`, Math.max(0, step.duration - fixtures));
    } else if (step.category === 'pw:api') this.add(`call › ${callKind(step.title)}`, step.duration);
    else if (step.category === 'expect') this.add('assertions (waiting for the page)', step.duration);
    else if (step.category === 'test.step') {
      for (const child of step.steps) this.addStep(child);
      this.add(
        'test code (Node: chain and API calls, timers)',
        Math.max(0, step.duration - step.steps.reduce((s, c) => s + c.duration, 0)),
      );
    } else this.add(step.category, step.duration);
  }

  private noteWait(step: TestStep) {
    if (!step.location) return;
    const where = `${step.location.file.replace(/^.*\/e2e\//, 'e2e/')}:${step.location.line}`;
    const line = this.byLine.get(where) ?? { title: step.title.slice(0, 100), ms: 0, count: 0 };
    line.ms += step.duration;
    line.count++;
    this.byLine.set(where, line);
  }

  onEnd(result: FullResult) {
    const wall = Date.now() - this.started;
    const startUp = (this.firstTestAt || Date.now()) - this.started;
    const inTests = [...this.bySpec.values()].reduce((a, b) => a + b, 0);
    const lines = [
      '',
      `e2e costs: ${this.tests} tests, ${result.status}, ${seconds(wall)} wall`,
      `  start-up until the first test (web server, worker): ${seconds(startUp)}`,
      `  in tests: ${seconds(inTests)} (${seconds(inTests / Math.max(1, this.tests))} a test)`,
      `  between tests (workers restarted after a failure, teardown): ${seconds(Math.max(0, wall - startUp - inTests))}`,
      '  where the tests spend it:',
      ...[...this.totals]
        .sort((a, b) => b[1] - a[1])
        .filter(([, ms]) => ms >= 500)
        .map(([key, ms]) => `    ${seconds(ms).padStart(9)}  ${((100 * ms) / Math.max(1, inTests)).toFixed(1).padStart(5)} %  ${key}`),
      '  the specs:',
      ...[...this.bySpec].sort((a, b) => b[1] - a[1]).map(([spec, ms]) => `    ${seconds(ms).padStart(9)}  ${spec}`),
      '  the slowest tests:',
      ...this.slowest
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 10)
        .map(({ title, ms }) => `    ${seconds(ms).padStart(9)}  ${title}`),
      '  the lines of the specs that wait longest (assertions and calls, all their runs):',
      ...[...this.byLine]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, 25)
        .map(([where, { title, ms, count }]) => `    ${seconds(ms).padStart(9)}  ${String(count).padStart(3)}×  ${where}  ${title}`),
    ];
    console.log(lines.join('\n'));
  }

  printsToStdio() {
    return false;
  }
}

export default E2eCosts;
