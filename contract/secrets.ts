// Finding the credentials an operation carries, at the table's secret paths (SecretPath in
// operations.ts). The client hides these values from its errors and logs; the emulator masks them
// in its state and request log.

/**
 * The values at secret paths in a call's input (`query`, `body`) or answer (`response`): `a.b`,
 * `a[].b` for every element of an array, and a `userinfo:` prefix for a URL whose
 * `user:password@` part (and password alone) is the secret.
 */
export function secretValuesAt(paths: readonly string[], parts: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const spec of paths) {
    const userinfo = spec.startsWith("userinfo:");
    const steps = (userinfo ? spec.slice("userinfo:".length) : spec).split(".");
    let values: unknown[] = [parts];
    for (const step of steps) {
      const many = step.endsWith("[]");
      const key = many ? step.slice(0, -2) : step;
      values = values.flatMap((v) => {
        const next = v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
        return many ? (Array.isArray(next) ? next : []) : [next];
      });
    }
    for (const v of values) {
      if (typeof v !== "string") continue;
      if (!userinfo) {
        found.push(v);
        continue;
      }
      try {
        const url = new URL(v);
        if (url.password) found.push(decodeURIComponent(url.password), url.password);
        if (url.username && url.password) found.push(`${url.username}:${url.password}`);
        // a token given as the user name alone (https://TOKEN@host)
        if (url.username && !url.password) found.push(decodeURIComponent(url.username), url.username);
      } catch {
        // not a URL: nothing to hide in it
      }
    }
  }
  return found;
}
