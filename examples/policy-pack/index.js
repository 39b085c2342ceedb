// A policy pack for media hosting accounts managed with pulumi-mediahost, on either face: it tells
// the native resources (type `mediahost:index:<Kind>`) and the dynamic ones
// (`pulumi-nodejs:dynamic/mediahost:<Kind>`) apart by their type token, and judges both by the
// same inputs (the two faces take the same ones).
//
//   npm install --save-dev @pulumi/policy        (beside pulumi-mediahost, which ships this pack)
//   pulumi preview --policy-pack node_modules/pulumi-mediahost/examples/policy-pack [--policy-pack-config config.json]
//
// Configuration (every key optional):
//   privatePrefix          folders at or under this path must not allow public listing (default /private)
//   forceDestroyAllowed    paths at or under which `forceDestroy: true` is allowed (default: none)
//   maxFileSizeBytes       the account's limit for one file (default 2 GiB, the account's fileSizeLimit)
//   productPrefix          every file at or under this path has a product id in the stack (default /products)

const fs = require("node:fs");
const path = require("node:path");
const { PolicyPack } = require("@pulumi/policy");

const TYPE = /^(?:mediahost:index|pulumi-nodejs:dynamic\/mediahost):([A-Za-z]+)$/;

/** The pulumi-mediahost kind of a resource (`Folder`, `Alias`, ...), whichever face it is of. */
function kindOf(type) {
  const match = TYPE.exec(type);
  return match ? match[1] : undefined;
}

/** A policy on the resources of the given kinds, with the pack's configuration. */
function rule(name, description, kinds, check, configSchema) {
  return {
    name,
    description,
    enforcementLevel: "mandatory",
    ...(configSchema ? { configSchema: { properties: configSchema } } : {}),
    validateResource: (args, reportViolation) => {
      const kind = kindOf(args.type);
      if (!kind || !kinds.includes(kind)) return;
      const config = configSchema ? args.getConfig() : {};
      const problem = check(args.props, config, kind);
      if (problem) reportViolation(`${kind} ${args.name}: ${problem}`);
    },
  };
}

const isUnder = (p, prefix) =>
  typeof p === "string" && (p === prefix || p.startsWith(`${prefix.replace(/\/$/, "")}/`));

new PolicyPack("mediahost", {
  policies: [
    rule(
      "fetching-over-https",
      "Remote fetching reaches its origin over https only.",
      ["AccountSettings"],
      (props) => {
        const url = props.fetching?.http?.url;
        if (props.fetching?.enabled && typeof url === "string" && !url.startsWith("https://"))
          return `remote fetching from ${url} is not over https`;
      },
    ),
    rule(
      "no-public-listing-under-private-prefix",
      "Folders under the private prefix do not allow public listing.",
      ["FolderOptions"],
      (props, config) => {
        const prefix = config.privatePrefix ?? "/private";
        if (props.allowListing === true && isUnder(props.path, prefix))
          return `${props.path} allows public listing, but lies under ${prefix}`;
      },
      { privatePrefix: { type: "string", default: "/private" } },
    ),
    rule(
      "cdn-alias-default-profile",
      "Every alias served through the CDN names a default image profile.",
      ["Alias"],
      (props) => {
        if (props.cdn === true && !props.defaultProfile)
          return `alias "${props.name}" is served through the CDN without a defaultProfile`;
      },
    ),
    rule(
      "force-destroy-allow-list",
      "forceDestroy only where the allow-list says.",
      ["Folder", "File"],
      (props, config) => {
        const allowed = config.forceDestroyAllowed ?? [];
        if (props.forceDestroy === true && !allowed.some((prefix) => isUnder(props.path, prefix)))
          return `forceDestroy is set on ${props.path}, which forceDestroyAllowed does not list`;
      },
      { forceDestroyAllowed: { type: "array", items: { type: "string" }, default: [] } },
    ),
    rule(
      "file-size-under-account-limit",
      "A file's declared content is within the account's limit for one file.",
      ["File"],
      (props, config) => {
        const limit = config.maxFileSizeBytes ?? 2 * 1024 ** 3;
        let size;
        if (typeof props.content === "string") size = Buffer.byteLength(props.content, "utf8");
        else if (typeof props.sourcePath === "string") {
          try {
            size = fs.statSync(path.resolve(props.sourcePath)).size;
          } catch {
            size = undefined; // not here to judge (the provider reports a missing file)
          }
        }
        if (size !== undefined && size > limit)
          return `${props.path} would hold ${size} bytes, more than the account's limit of ${limit}`;
      },
      { maxFileSizeBytes: { type: "number", default: 2 * 1024 ** 3 } },
    ),
    {
      // across resources: the product id is a FolderMeta's, the file another resource
      name: "product-id-under-prefix",
      description:
        "Every file under the product prefix has a FolderMeta in the stack that gives it a product id.",
      enforcementLevel: "mandatory",
      configSchema: { properties: { productPrefix: { type: "string", default: "/products" } } },
      validateStack: (args, reportViolation) => {
        const prefix = args.getConfig().productPrefix ?? "/products";
        const withProduct = new Set(
          args.resources
            .filter((r) => kindOf(r.type) === "FolderMeta" && r.props.product?.id)
            .map((r) => r.props.path),
        );
        for (const r of args.resources) {
          if (kindOf(r.type) !== "File" || !isUnder(r.props.path, prefix) || withProduct.has(r.props.path))
            continue;
          reportViolation(
            `File ${r.name}: ${r.props.path} lies under ${prefix}, but no FolderMeta of the stack gives it a product id`,
            r.urn,
          );
        }
      },
    },
  ],
});
