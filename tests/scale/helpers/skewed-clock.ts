/**
 * A copy's clock off by `TEST_CLOCK_SKEW_MS` (negative: behind), for the fault tests only:
 * preloaded with `NODE_OPTIONS=--import=<this file>` into a shop copy started by a test, so its
 * supervisor, its workers and its builds (which inherit the environment) all read the skewed
 * time through `Date.now()` and `new Date()`, as on a machine whose clock is wrong. Monotonic
 * clocks (`performance.now()`, timers) are untouched, as they are on such a machine. Nothing in
 * the shop reads this variable: only this file, which only tests load.
 */
const skew = Number(process.env.TEST_CLOCK_SKEW_MS ?? '0');

if (Number.isFinite(skew) && skew !== 0) {
  const RealDate = Date;
  const now = () => RealDate.now() + skew;
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget) as object;
    },
    apply(target) {
      // `Date()` called as a function: the current time as a string.
      return new target(now()).toString();
    },
    get(target, property, receiver) {
      if (property === 'now') return now;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

export {};
