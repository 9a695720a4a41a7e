// Waiting in tests: asks `probe` every `intervalMs` until it gives a value other than undefined or
// false, and returns that value; after `timeoutMs` it throws, naming `what` and the probe's last
// error (a probe may throw while the thing it waits for is not there yet).
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
