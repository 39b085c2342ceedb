// The quickstart in Go, on the native face (the provider plugin pulumi-resource-mediahost): one
// account's settings, two aliases, a custom domain, a small folder tree with options and meta, and
// a file. The same objects as examples/quickstart (TypeScript) and examples/yaml.
//
// The Go SDK is generated from the package schema, not published: `go.mod` replaces its module with
// ./sdk/go, which `pulumi package gen-sdk mediahost --language go --out sdk` writes in this
// directory, from the plugin once installed (`pulumi plugin install resource mediahost <version>`);
// or name the plugin by its path, e.g. node_modules/pulumi-mediahost/plugin/pulumi-resource-mediahost
// (test/e2e/go.test.ts builds a copy of this directory outside the repository so). Then:
//
//	pulumi config set mediahost:baseUrl https://api.example.com      (or the emulator's URL)
//	pulumi config set mediahost:clientId <id>
//	pulumi config set --secret mediahost:clientSecret <secret>
//	pulumi config set --secret originPassword <password of the origin the account fetches from>
//	pulumi up
package main

import (
	"github.com/pulumi-mediahost/pulumi-mediahost/sdk/go/mediahost"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		// Fetch files missing from the account from our origin, and minify JS/CSS.
		settings, err := mediahost.NewAccountSettings(ctx, "settings", &mediahost.AccountSettingsArgs{
			Minify: &mediahost.AccountSettingsMinifyArgs{Enabled: pulumi.Bool(true)},
			Fetching: &mediahost.AccountSettingsFetchingArgs{
				Enabled: pulumi.Bool(true),
				Type:    pulumi.String("http"),
				Http: &mediahost.AccountSettingsFetchingHttpArgs{
					Url: pulumi.String("https://origin.example.com/media"),
					Auth: &mediahost.AccountSettingsFetchingHttpAuthArgs{
						Enabled:  pulumi.Bool(true),
						Username: pulumi.String("fetcher"),
						Password: cfg.RequireSecret("originPassword"),
					},
				},
			},
		})
		if err != nil {
			return err
		}

		// Two address aliases and a custom domain on the first.
		web, err := mediahost.NewAlias(ctx, "web", &mediahost.AliasArgs{
			Name: pulumi.String("web"), Prefix: pulumi.String("/"), Cdn: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		if _, err := mediahost.NewAlias(ctx, "thumbs", &mediahost.AliasArgs{
			Name:           pulumi.String("thumbs"),
			Prefix:         pulumi.String("/products"),
			Cdn:            pulumi.Bool(true),
			DefaultProfile: pulumi.String("thumbnail"),
		}); err != nil {
			return err
		}
		if _, err := mediahost.NewCustomDomain(ctx, "web-domain", &mediahost.CustomDomainArgs{
			Alias: web.Name, Domain: pulumi.String("img.example.com"),
		}); err != nil {
			return err
		}

		// A folder tree: children name their parent's output, so they are created after it.
		products, err := mediahost.NewFolder(ctx, "products", &mediahost.FolderArgs{Path: pulumi.String("/products")})
		if err != nil {
			return err
		}
		shoes, err := mediahost.NewFolder(ctx, "shoes", &mediahost.FolderArgs{
			Path: pulumi.Sprintf("%s/shoes", products.Path),
		})
		if err != nil {
			return err
		}
		bags, err := mediahost.NewFolder(ctx, "bags", &mediahost.FolderArgs{Path: pulumi.Sprintf("%s/bags", products.Path)})
		if err != nil {
			return err
		}
		if _, err := mediahost.NewFolderOptions(ctx, "shoes-options", &mediahost.FolderOptionsArgs{
			Path: shoes.Path, ScanSpins: pulumi.Bool(true), NameSpinsAfterFolder: pulumi.Bool(true),
		}); err != nil {
			return err
		}
		if _, err := mediahost.NewFolderMeta(ctx, "shoes-meta", &mediahost.FolderMetaArgs{
			Path:        shoes.Path,
			Title:       pulumi.String("Shoes"),
			Description: pulumi.String("Every shoe in the catalog"),
			Tags:        pulumi.StringArray{pulumi.String("catalog"), pulumi.String("shoes")},
		}); err != nil {
			return err
		}
		if _, err := mediahost.NewFolderMeta(ctx, "bags-meta", &mediahost.FolderMetaArgs{
			Path: bags.Path, Title: pulumi.String("Bags"), Tags: pulumi.StringArray{pulumi.String("catalog")},
		}); err != nil {
			return err
		}

		// The image profile the "thumbs" alias names as its default.
		assets, err := mediahost.NewFolder(ctx, "assets", &mediahost.FolderArgs{Path: pulumi.String("/assets")})
		if err != nil {
			return err
		}
		if _, err := mediahost.NewFile(ctx, "thumbnail-profile", &mediahost.FileArgs{
			Path:        pulumi.Sprintf("%s/thumbnail.profile.json", assets.Path),
			Content:     pulumi.String(`{"resize":{"width":320,"height":320,"fit":"cover"},"format":"webp"}`),
			ContentType: pulumi.String("application/json"),
		}); err != nil {
			return err
		}

		ctx.Export("accountAlias", settings.AccountAlias)
		ctx.Export("shoesUrl", shoes.CdnUrl)
		return nil
	})
}
