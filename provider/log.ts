// Progress and warnings from inside the provider process, where the user sees them. A face that
// talks to the engine sets a sink that reports through it (attached to the resource); without one
// (the dynamic provider, tools and tests) they go to stderr: the CLI shows a provider process's
// stderr under the stack, and drops its stdout.

export interface LogSink {
  info(message: string): void;
  warn(message: string): void;
}

const stderr: LogSink = {
  info: (message) => process.stderr.write(`info: ${message}\n`),
  warn: (message) => process.stderr.write(`warning: ${message}\n`),
};

let sink: LogSink = stderr;

export const log: LogSink = {
  info: (message) => sink.info(message),
  warn: (message) => sink.warn(message),
};

/** Where log lines go from now on (a face's engine connection); undefined restores stderr. */
export function setLogSink(next: LogSink | undefined): void {
  sink = next ?? stderr;
}
