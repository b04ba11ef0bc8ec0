/** pino-compatible; what the Redis adapters log through. */
export interface RedisLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export const NO_REDIS_LOG: RedisLogger = { warn: () => undefined, info: () => undefined };

export interface OutageLog {
  /** A failure: logged (warn) only when it starts an outage. */
  down(err: unknown): void;
  /** A success: logged (info) only when it ends an outage. */
  up(): void;
  readonly isDown: boolean;
}

const describeError = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * One line when an outage starts and one when it ends, however many requests fail in
 * between: a Redis outage under load would otherwise write a line per request.
 */
export function createOutageLog(logger: RedisLogger, downMsg: string, upMsg: string): OutageLog {
  let down = false;
  return {
    down(err) {
      if (down) return;
      down = true;
      logger.warn({ err: describeError(err) }, downMsg);
    },
    up() {
      if (!down) return;
      down = false;
      logger.info({}, upMsg);
    },
    get isDown() {
      return down;
    },
  };
}
