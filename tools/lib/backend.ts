// The state backend a tool acts on, named in its messages: the URL the CLI uses (PULUMI_BACKEND_URL,
// else the one `pulumi login` chose), without the credentials a URL can carry.

const SECRET_PARAM = /secret|password|passwd|token|key|sig|credential/i;

/** The backend URL as messages show it: a password in it, and secret-looking query values, masked. */
export function describeBackend(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const secretParams = [...parsed.searchParams.keys()].filter((k) => SECRET_PARAM.test(k));
  if (!parsed.password && secretParams.length === 0) return url;
  if (parsed.password) parsed.password = "****";
  for (const k of secretParams) parsed.searchParams.set(k, "****");
  return decodeURIComponent(parsed.toString());
}
