// Invalid inputs, each with the message that must name its field and rule. Shared by the
// program (which declares them all at once) and the test (which looks for every message).

export interface ResourceCase {
  name: string;
  kind:
    | "Folder"
    | "FolderOptions"
    | "FolderMeta"
    | "Alias"
    | "CustomDomain"
    | "SubAccount"
    | "AccountSettings";
  args: Record<string, unknown>;
  /** field: rule, as `check` reports it */
  expected: string;
}

export interface FunctionCase {
  name: string;
  fn:
    | "getAccount"
    | "getAccountStorage"
    | "getAccountLimits"
    | "getBillingPlan"
    | "getAccountUsers"
    | "getUser"
    | "listFolder";
  args: Record<string, unknown>;
  expected: string;
}

const long = (n: number, c = "a") => c.repeat(n);
/** A fetching password given to an invalid resource: no output may show it. */
export const BAD_INPUT_SECRET = "pw-in-bad-input-93e1";
const HOST_RULE = "must be a lower-case host name such as img.example.com (no scheme, port or path)";
const NAME_RULE = "must be 1 to 63 letters, digits, '-' or '_', starting with a letter or digit";
const http = (extra: Record<string, unknown>) => ({ enabled: true, type: "http", ...extra });

export const resourceCases: ResourceCase[] = [
  // Folder: bad paths, over-long values, wrong types, unknown properties
  {
    name: "folder-relative",
    kind: "Folder",
    args: { path: "photos" },
    expected: 'path: must begin with "/"',
  },
  {
    name: "folder-long",
    kind: "Folder",
    args: { path: `/${long(1024)}` },
    expected: "path: must be at most 1024 characters",
  },
  {
    name: "folder-dotdot",
    kind: "Folder",
    args: { path: "/a/../b" },
    expected: 'path: must not contain "." or ".." segments',
  },
  {
    name: "folder-empty-seg",
    kind: "Folder",
    args: { path: "/a//b" },
    expected: 'path: must not contain empty segments ("//")',
  },
  { name: "folder-root", kind: "Folder", args: { path: "/" }, expected: 'path: must not be the root "/"' },
  {
    name: "folder-control",
    kind: "Folder",
    args: { path: "/a\u0007b" },
    expected: "path: must not contain control characters",
  },
  {
    name: "folder-number",
    kind: "Folder",
    args: { path: 42 },
    expected: "path: Invalid input: expected string, received number",
  },
  {
    name: "folder-unknown",
    kind: "Folder",
    args: { path: "/ok3", colour: "red" },
    expected: '(inputs): Unrecognized key: "colour"',
  },
  {
    name: "folder-account",
    kind: "Folder",
    args: { path: "/ok4", account: "nowhere" },
    expected: 'account: account: "nowhere" is not configured under mediahost:accounts',
  },
  // FolderOptions
  {
    name: "options-none",
    kind: "FolderOptions",
    args: { path: "/a" },
    expected: "scanSpins: set at least one of scanSpins, nameSpinsAfterFolder, allowListing",
  },
  {
    name: "options-type",
    kind: "FolderOptions",
    args: { path: "/a", allowListing: 1 },
    expected: "allowListing: Invalid input: expected boolean, received number",
  },
  // FolderMeta
  {
    name: "meta-title-long",
    kind: "FolderMeta",
    args: { path: "/a", title: long(257, "t") },
    expected: "title: must be at most 256 characters",
  },
  {
    name: "meta-tag-long",
    kind: "FolderMeta",
    args: { path: "/a", tags: [long(33, "x")] },
    expected: "tags.0: must be at most 32 characters",
  },
  {
    name: "meta-tag-repeat",
    kind: "FolderMeta",
    args: { path: "/a", tags: ["a", "a"] },
    expected: "tags: must not repeat a tag",
  },
  {
    name: "meta-tags-many",
    kind: "FolderMeta",
    args: { path: "/a", tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
    expected: "tags: must have at most 50 tags",
  },
  {
    name: "meta-none",
    kind: "FolderMeta",
    args: { path: "/a" },
    expected: "title: set at least one of title, description, tags, product, approval",
  },
  // Alias
  { name: "alias-space", kind: "Alias", args: { name: "has space" }, expected: `name: ${NAME_RULE}` },
  {
    name: "alias-cdn-type",
    kind: "Alias",
    args: { name: "web1", cdn: "true" },
    expected: "cdn: Invalid input: expected boolean, received string",
  },
  {
    name: "alias-prefix-long",
    kind: "Alias",
    args: { name: "web2", prefix: long(1025) },
    expected: "prefix: must be at most 1024 characters",
  },
  {
    name: "alias-unknown",
    kind: "Alias",
    args: { name: "web4", domain: "x.example.com" },
    expected: '(inputs): Unrecognized key: "domain"',
  },
  // CustomDomain: bad URLs
  {
    name: "domain-scheme",
    kind: "CustomDomain",
    args: { alias: "web", domain: "https://img.example.com" },
    expected: `domain: ${HOST_RULE}`,
  },
  {
    name: "domain-port",
    kind: "CustomDomain",
    args: { alias: "web", domain: "img.example.com:8443" },
    expected: `domain: ${HOST_RULE}`,
  },
  {
    name: "domain-long",
    kind: "CustomDomain",
    args: { alias: "web", domain: `${long(250)}.com` },
    expected: "domain: must be at most 253 characters",
  },
  // SubAccount
  { name: "sub-slash", kind: "SubAccount", args: { alias: "shop/eu" }, expected: `alias: ${NAME_RULE}` },
  {
    name: "sub-unknown",
    kind: "SubAccount",
    args: { alias: "shop", plan: "pro" },
    expected: '(inputs): Unrecognized key: "plan"',
  },
  // AccountSettings: conflicting and incomplete options, bad URLs
  {
    name: "settings-none",
    kind: "AccountSettings",
    args: {},
    expected: "minify: set at least one of minify, fetching",
  },
  {
    name: "settings-no-type",
    kind: "AccountSettings",
    args: { fetching: { enabled: true } },
    expected: "fetching.type: required when enabled is true",
  },
  {
    name: "settings-s3-missing",
    kind: "AccountSettings",
    args: { fetching: { enabled: true, type: "s3", http: { url: "https://o.example.com" } } },
    expected: 'fetching.s3: required when type is "s3"',
  },
  {
    name: "settings-bad-url",
    kind: "AccountSettings",
    args: { fetching: http({ http: { url: "not a url" } }) },
    expected: "fetching.http.url: must be a URI",
  },
  {
    // a failure path with a secret in the same resource: the message must not show it
    name: "settings-bad-url-secret",
    kind: "AccountSettings",
    args: {
      fetching: http({
        http: { url: "ftp//nowhere", auth: { enabled: true, username: "u", password: BAD_INPUT_SECRET } },
      }),
    },
    expected: "fetching.http.url: must be a URI",
  },
  {
    name: "settings-bad-type",
    kind: "AccountSettings",
    args: { fetching: { enabled: true, type: "ftp" } },
    expected: "fetching.type: Invalid option",
  },
  {
    name: "settings-auth-no-pw",
    kind: "AccountSettings",
    args: {
      fetching: http({ http: { url: "https://o.example.com", auth: { enabled: true, username: "u" } } }),
    },
    expected: "fetching.http.auth.password: required when auth.enabled is true",
  },
  {
    name: "settings-minify-unknown",
    kind: "AccountSettings",
    args: { minify: { enabled: true, level: 3 } },
    expected: 'minify: Unrecognized key: "level"',
  },
];

export const functionCases: FunctionCase[] = [
  {
    name: "fn-account-unknown",
    fn: "getAccount",
    args: { account: "nowhere" },
    expected: 'account: "nowhere" is not configured under mediahost:accounts',
  },
  {
    name: "fn-account-empty",
    fn: "getAccountStorage",
    args: { account: "" },
    expected: "getAccountStorage: invalid arguments: account: must not be empty",
  },
  {
    name: "fn-limits-unknown-prop",
    fn: "getAccountLimits",
    args: { counter: "x" },
    expected: 'getAccountLimits: invalid arguments: (arguments): Unrecognized key: "counter"',
  },
  {
    name: "fn-plan-type",
    fn: "getBillingPlan",
    args: { account: 7 },
    expected: "getBillingPlan: invalid arguments: account: Invalid input: expected string, received number",
  },
  {
    name: "fn-users-unknown-prop",
    fn: "getAccountUsers",
    args: { role: "admin" },
    expected: 'getAccountUsers: invalid arguments: (arguments): Unrecognized key: "role"',
  },
  {
    name: "fn-user-missing",
    fn: "getUser",
    args: {},
    expected: "getUser: invalid arguments: userId: must be a string",
  },
  {
    name: "fn-user-empty",
    fn: "getUser",
    args: { userId: "" },
    expected: "getUser: invalid arguments: userId: must not be empty",
  },
  {
    name: "fn-user-long",
    fn: "getUser",
    args: { userId: long(257) },
    expected: "getUser: invalid arguments: userId: must be at most 256 characters",
  },
  {
    name: "fn-list-relative",
    fn: "listFolder",
    args: { path: "photos" },
    expected: 'listFolder: invalid arguments: path: must begin with "/"',
  },
  {
    name: "fn-list-dotdot",
    fn: "listFolder",
    args: { path: "/a/../b" },
    expected: 'listFolder: invalid arguments: path: must not contain "." or ".." segments',
  },
  {
    name: "fn-list-long",
    fn: "listFolder",
    args: { path: `/${long(1024)}` },
    expected: "listFolder: invalid arguments: path: must be at most 1024 characters",
  },
];
