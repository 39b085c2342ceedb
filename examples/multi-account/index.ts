// Multi-account: one component stamps the same folder layout (with options and meta) into every
// account named under `mediahost:accounts`, and one account gets a sub-account for an agency.
//
//   pulumi config set mediahost:baseUrl https://api.example.com            (shared by both accounts)
//   pulumi config set --path mediahost:accounts.eu.clientId <eu client id>
//   pulumi config set --secret --path mediahost:accounts.eu.clientSecret <eu client secret>
//   pulumi config set --path mediahost:accounts.us.clientId <us client id>
//   pulumi config set --secret --path mediahost:accounts.us.clientSecret <us client secret>
//   pulumi up
//
// Each account may also have its own `baseUrl` (mediahost:accounts.<name>.baseUrl).
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

export interface CatalogLayoutArgs {
  /** The account's name under `mediahost:accounts`. */
  account: string;
  /** The top folder of the layout (default /catalog). */
  root?: string;
  /** Sections under the root, each with its own folder, options and meta. */
  sections: { name: string; title: string; spins?: boolean; tags?: string[] }[];
}

/** The catalog's folders, their options and their meta, in one account. */
export class CatalogLayout extends pulumi.ComponentResource {
  /** CDN URL of each section's folder, by section name. */
  readonly urls: pulumi.Output<Record<string, string | undefined>>;

  constructor(name: string, args: CatalogLayoutArgs, opts?: pulumi.ComponentResourceOptions) {
    super("examples:mediahost:CatalogLayout", name, {}, opts);
    const account = args.account;
    const child = { parent: this };
    const root = new mediahost.Folder(`${name}-root`, { path: args.root ?? "/catalog", account }, child);
    new mediahost.FolderMeta(`${name}-root-meta`, { path: root.path, title: "Catalog", account }, child);

    const urls: Record<string, pulumi.Output<string | undefined>> = {};
    for (const section of args.sections) {
      const folder = new mediahost.Folder(
        `${name}-${section.name}`,
        { path: pulumi.interpolate`${root.path}/${section.name}`, account },
        child,
      );
      new mediahost.FolderOptions(
        `${name}-${section.name}-options`,
        {
          path: folder.path,
          scanSpins: section.spins ?? false,
          nameSpinsAfterFolder: section.spins ?? false,
          account,
        },
        child,
      );
      new mediahost.FolderMeta(
        `${name}-${section.name}-meta`,
        { path: folder.path, title: section.title, tags: section.tags ?? [], account },
        child,
      );
      urls[section.name] = folder.cdnUrl;
    }
    this.urls = pulumi.output(urls);
    this.registerOutputs({ urls: this.urls });
  }
}

const config = new pulumi.Config();
const accounts = config.getObject<string[]>("accounts") ?? ["eu", "us"];
const sections = [
  { name: "shoes", title: "Shoes", spins: true, tags: ["catalog", "shoes"] },
  { name: "bags", title: "Bags", tags: ["catalog"] },
];

const layouts = Object.fromEntries(
  accounts.map((account) => [account, new CatalogLayout(account, { account, sections })]),
);

// A sub-account of the first account, for an agency that uploads campaign material.
const agency = new mediahost.SubAccount("agency", {
  alias: config.get("agencyAlias") ?? `${accounts[0]}-agency`,
  account: accounts[0],
});

export const urls = Object.fromEntries(Object.entries(layouts).map(([account, l]) => [account, l.urls]));
export const agencyAlias = agency.alias;
