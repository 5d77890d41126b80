/**
 * How the server ends on SIGTERM or SIGINT (a deploy rolling, an orchestrator moving it, Ctrl-C):
 *
 *  1. it says it is not ready, and goes on serving for SHUTDOWN_DELAY_MS (5 s behind a proxy of
 *     ours, none otherwise), so that the load balancer's next health check takes it out before it
 *     stops accepting: a connection made meanwhile is answered, not refused or reset;
 *  2. it stops accepting connections (new ones are refused, which a proxy retries elsewhere),
 *     closes the idle keep-alive ones and answers the requests in flight, with `Connection:
 *     close`, for up to the rest of the grace (SHUTDOWN_GRACE_MS, 25 s: under an orchestrator's
 *     usual 30 s before SIGKILL) (http-terminator); meanwhile the background jobs finish their
 *     pass under way and stop. An answer whose headers were sent already (a streamed one: the
 *     payments export) goes on to its end, however slowly its client reads, and its connection is
 *     closed once the last byte is written, so the shutdown need not wait for the keep-alive
 *     timeout;
 *  3. then what the requests and jobs used is closed, in order (the watcher's lock, the chain
 *     client, the database …), and the process exits 0.
 *
 * What is still running when the grace ends is cut (a transaction rolls back; settlement and the
 * hand-off are written to be retried). A second signal exits at once.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { createHttpTerminator } from 'http-terminator';
import type { Logger } from './logger';

export interface ShutdownPlan {
  server: Server;
  graceMs: number;
  logger: Logger;
  /** Runs first: readiness answers "shutting down" from now on. */
  onBegin?: () => void;
  /** How long the server goes on serving, unready, before it stops accepting (part of the grace). */
  unreadyDelayMs?: number;
  /** While the requests in flight finish: the background jobs stop (each pass under way ends). */
  drain?: () => Promise<void>;
  /** Once no request is in flight and the jobs have stopped (or the grace ended), in this order. */
  close: Array<{ name: string; run: () => Promise<void> | void }>;
  exit?: (code: number) => void;
  /** Listen for SIGTERM and SIGINT (default); tests call `shutdown` themselves. */
  signals?: boolean;
}

/**
 * Call it as soon as the server listens: only connections made after it are tracked (and so
 * closed when idle, or told `Connection: close` when busy). The plan's functions are called at
 * shutdown, so they may refer to what is started later (the jobs).
 */
export function shutdownOnSignals(plan: ShutdownPlan): { shutdown(signal: string): Promise<void> } {
  const exit = plan.exit ?? ((code: number) => process.exit(code));
  const { logger, graceMs } = plan;
  const terminator = createHttpTerminator({
    server: plan.server,
    gracefulTerminationTimeout: Math.max(0, graceMs - (plan.unreadyDelayMs ?? 0)),
  });
  // The answers in flight, tracked from now on like the connections (http-terminator's, above).
  const answering = new Set<ServerResponse>();
  plan.server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    answering.add(res);
    res.once('close', () => answering.delete(res));
  });
  let started: Promise<void> | null = null;

  const shutdown = (signal: string): Promise<void> => {
    if (started) {
      logger.warn({ signal }, 'second signal: exiting now');
      exit(1);
      return started;
    }
    started = (async () => {
      const began = Date.now();
      logger.info(
        { signal, graceMs, unreadyDelayMs: plan.unreadyDelayMs ?? 0 },
        'shutting down: unready, then answering the requests in flight',
      );
      plan.onBegin?.();
      // Every answer in flight or to come closes its connection once it is written: the proxy's
      // kept-alive ones are let go, and the connections drain without waiting for their timeout.
      for (const res of answering) closeWhenAnswered(res);
      plan.server.on('request', (_req: IncomingMessage, res: ServerResponse) => closeWhenAnswered(res));
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace over'>((resolve) => {
        timer = setTimeout(() => resolve('grace over'), graceMs);
        timer.unref();
      });
      const jobs = plan.drain?.();
      const delayMs = Math.min(plan.unreadyDelayMs ?? 0, graceMs);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      // New connections are refused from here (a proxy tries them elsewhere); http-terminator
      // later closes the listener itself, which is closed already by then.
      stopAccepting(plan.server);
      const served = terminator.terminate().catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ERR_SERVER_NOT_RUNNING') throw err;
      });
      const drained = await Promise.race([Promise.all([served, jobs]).then(() => 'drained' as const), graceOver]);
      clearTimeout(timer);
      if (drained === 'grace over') {
        logger.warn({ graceMs }, 'shutdown grace over: cutting what is still running');
        plan.server.closeAllConnections();
      }
      for (const step of plan.close) {
        try {
          await step.run();
        } catch (err) {
          logger.warn({ err, step: step.name }, 'shutdown: a step failed; going on');
        }
      }
      logger.info({ ms: Date.now() - began }, 'shut down');
      exit(0);
    })();
    return started;
  };
  if (plan.signals !== false) {
    // The first signal of either kind begins the shutdown; a second one ends the process at once.
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
  }
  return { shutdown };
}

/**
 * The answer's connection is closed once the answer is written: `Connection: close` while its
 * headers are not sent yet (Node then closes it); else, a streamed answer under way, the
 * connection is ended after its last byte has been handed to the system (`finish`), which still
 * delivers what the client has not read yet.
 */
function closeWhenAnswered(res: ServerResponse): void {
  if (!res.headersSent) {
    res.setHeader('Connection', 'close');
    return;
  }
  const socket = res.socket;
  if (socket) res.once('finish', () => socket.end());
}

/**
 * Stops accepting connections, and nothing else. Not `http.Server#close`: that also destroys every
 * connection whose answer has been ended, as idle, even while the end of that answer is still
 * waiting to be written to a client that reads slowly (a large export), whose download would then
 * stop short. http-terminator closes the idle ones, and those still answering when the grace ends.
 */
function stopAccepting(server: Server): void {
  NetServer.prototype.close.call(server);
}
