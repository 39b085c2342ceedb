// What a failed resource operation shows the user. Expected failures — the service's errors,
// bad input, refusals to act, rate limits, deadlines — are one clear line per resource. The
// dynamic-provider host prints every error it is handed as `${error}: ${error.stack}` before the
// engine reports it, so an expected failure carries its message where a stack would be and
// names the provider where the error's type would be. Genuine bugs keep their stack traces.
import { MediahostError, ProviderError } from "./client";

export { ProviderError };

/** Whether `err` is a failure the provider anticipated (its own, or one the client reports). */
export function isExpected(err: unknown): boolean {
  return err instanceof ProviderError || err instanceof MediahostError;
}

/**
 * The error to hand to Pulumi for `err`: expected failures become one line (`prefix` names the
 * resource when the message does not already), anything else passes through untouched.
 */
export function shaped(err: unknown, prefix?: string): unknown {
  if (!isExpected(err)) return err;
  const message = (err as Error).message;
  if (err instanceof ProviderError && (!prefix || message.startsWith(prefix))) return err;
  return new ProviderError(prefix && !message.startsWith(prefix) ? `${prefix}: ${message}` : message, {
    cause: err,
  });
}
