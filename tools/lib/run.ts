// How each tool runs: its exit code from `main`, or 1 with the error in one line on stderr.

export function runMain(
  main: (args: string[]) => Promise<number>,
  progress: (line: string) => void,
  describe: (err: unknown) => string = (err) => (err instanceof Error ? err.message : String(err)),
): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      progress(`error: ${describe(err)}`);
      process.exitCode = 1;
    },
  );
}
