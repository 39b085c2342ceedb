package main

// GeneratePackage as Pulumi's .NET host does it (../hostkit: bind the schema against the engine's
// loader, binding errors as diagnostics, else write what the generator returns), with the C# code
// generator (overlay files and local dependencies included). One addition: the package's icon,
// which the generator downloads, is resolved offline (logo.go). Every other LanguageRuntime method
// is refused with a message saying what this host is for.

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	dotnetgen "github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"pulumi-mediahost.local/toolchain/hostkit"
)

func newHost(engineAddr string) *hostkit.SDKOnlyHost {
	return hostkit.NewSDKOnlyHost("dotnet", version, engineAddr,
		func(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
			return hostkit.GeneratePackage(ctx, req, generateCSharp)
		})
}

// generateCSharp is `pulumi package gen-sdk --language dotnet`'s generator: the icon first (the
// generator downloads it, logo.go), then the C# SDK.
func generateCSharp(
	ctx context.Context, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, _ schema.ReferenceLoader,
) (map[string][]byte, hcl.Diagnostics, error) {
	warnings := installLogoTransport().resolveLogo(ctx, pkg.LogoURL)
	files, err := dotnetgen.GeneratePackage(
		"pulumi-language-dotnet", pkg, req.GetExtraFiles(), req.GetLocalDependencies())
	return files, warnings, err
}
