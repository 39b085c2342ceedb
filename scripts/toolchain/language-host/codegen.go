package main

// Program generation and SDK linking, as Pulumi's own pulumi-language-nodejs does them: the engine sends PCL (from
// `pulumi import --generate-code`, or a directory of it from `pulumi convert`) and the address of a
// schema loader it serves; we bind the PCL against the schemas that loader hands out (so provider
// plugins answer GetSchema through the engine, never through us) and print it as TypeScript with
// Pulumi's Node.js code generator.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/cgstrings"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/fsutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// codegenRuntime is what the Node.js code generator is told the project runs on ("bun" would make
// it write ES modules).
const codegenRuntime = "nodejs"

// bindOptions are the real host's: output-versioned invokes (`fooOutput(...)`) read best in
// TypeScript; non-strict binding lets `pulumi import` refer to parents and providers it does not
// declare.
func bindOptions(strict bool) []pcl.BindOption {
	opts := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	return opts
}

func (h *languageHost) GenerateProgram(
	_ context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader at %q: %w", req.GetLoaderTarget(), err)
	}
	defer loader.Close()
	return generateProgram(req.GetSource(), schema.NewCachedLoader(loader), req.GetStrict())
}

// generateProgram is GenerateProgram without the gRPC loader, so tests can bind against schemas
// of their own.
func generateProgram(
	source map[string]string, loader schema.ReferenceLoader, strict bool,
) (*pulumirpc.GenerateProgramResponse, error) {
	parser := hclsyntax.NewParser()
	// In name order, so diagnostics come out the same way every time.
	names := make([]string, 0, len(source))
	for name := range source {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(source[name]), name); err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{
			Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics),
		}, nil
	}

	program, diags, err := pcl.BindProgram(parser.Files, loader, bindOptions(strict)...)
	// With error diagnostics, err is those diagnostics again: the engine gets them as diagnostics (as
	// pcl.BindDirectory does for GenerateProject). Only an error without diagnostics is one.
	if err != nil && len(diags) == 0 {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	if program == nil {
		return nil, errors.New("internal error: binding the program returned no program and no error")
	}

	files, genDiags, err := codegen.GenerateProgramWithOptions(program, codegen.ProgramOptions{Runtime: codegenRuntime})
	if err != nil {
		return nil, err
	}
	all := append(hcl.Diagnostics{}, diags...)
	all = append(all, genDiags...)
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(all),
	}, nil
}

// GenerateProject is `pulumi convert --language typescript`: a whole project (Pulumi.yaml,
// package.json, tsconfig.json, index.ts) from a directory of PCL.
func (h *languageHost) GenerateProject(
	_ context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader at %q: %w", req.GetLoaderTarget(), err)
	}
	defer loader.Close()
	return generateProject(req, schema.NewCachedLoader(loader))
}

func generateProject(
	req *pulumirpc.GenerateProjectRequest, loader schema.ReferenceLoader,
) (*pulumirpc.GenerateProjectResponse, error) {
	program, diags, err := pcl.BindDirectory(req.GetSourceDirectory(), loader, bindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GenerateProjectResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}

	var project workspace.Project
	if err := json.Unmarshal([]byte(req.GetProject()), &project); err != nil {
		return nil, fmt.Errorf("reading the project the engine sent: %w", err)
	}
	// forceTsc false: the project runs TypeScript directly, as `pulumi new typescript` projects do.
	if err := codegen.GenerateProject(
		req.GetTargetDirectory(), project, program, req.GetLocalDependencies(), false, codegenRuntime,
	); err != nil {
		var genDiags hcl.Diagnostics
		if errors.As(err, &genDiags) {
			return &pulumirpc.GenerateProjectResponse{
				Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(append(diags, genDiags...)),
			}, nil
		}
		return nil, err
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

// Link is how `pulumi convert` (and `pulumi package add`) make SDKs generated into the project
// usable: each one becomes a `file:` dependency of the program's package.json (through the package
// manager, as the real host does), and the engine is told how to import it. `pulumi convert` calls
// it even when there is nothing to link.
func (h *languageHost) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	info := req.GetInfo()
	opts := runtimeOptionsFrom(info.GetOptions())
	programDir := info.GetProgramDirectory()

	isTypeScript := opts.typescript || opts.tsconfigPath != ""
	if !isTypeScript {
		if _, err := fsutil.Searchup(programDir, "tsconfig.json"); err == nil {
			isTypeScript = true
		}
	}
	usesModuleSyntax := isTypeScript
	if !usesModuleSyntax {
		if p, err := npm.SearchupPackageManifest(programDir); err == nil {
			if data, _, err := npm.ReadPackageManifest(filepath.Dir(p)); err == nil {
				usesModuleSyntax = data["type"] == "module"
			}
		}
	}
	instructions := "You can import the SDK in your JavaScript code with:\n\n"
	if isTypeScript {
		instructions = "You can import the SDK in your TypeScript code with:\n\n"
	}
	if len(req.GetPackages()) == 0 {
		return &pulumirpc.LinkResponse{ImportInstructions: instructions}, nil
	}

	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader at %q: %w", req.GetLoaderTarget(), err)
	}
	defer loader.Close()
	cached := schema.NewCachedLoader(loader)
	pmType := npm.AutoPackageManager
	if opts.packageManager != "" {
		pmType = npm.PackageManagerType(opts.packageManager)
	}
	pm, err := npm.ResolvePackageManager(pmType, programDir)
	if err != nil {
		return nil, err
	}

	var imports strings.Builder
	for _, dep := range req.GetPackages() {
		desc := &schema.PackageDescriptor{Name: dep.GetPackage().GetName(), DownloadURL: dep.GetPackage().GetServer()}
		if v, err := semver.ParseTolerant(dep.GetPackage().GetVersion()); err == nil {
			desc.Version = &v
		}
		if p := dep.GetPackage().GetParameterization(); p != nil {
			desc.Parameterization = &schema.ParameterizationDescriptor{Name: p.GetName(), Value: p.GetValue()}
			if v, err := semver.ParseTolerant(p.GetVersion()); err == nil {
				desc.Parameterization.Version = v
			}
		}
		ref, err := schema.LoadPackageReferenceV2(ctx, cached, desc)
		if err != nil {
			return nil, err
		}
		pkg, err := ref.Definition()
		if err != nil {
			return nil, err
		}
		if err := pkg.ImportLanguages(map[string]schema.Language{"nodejs": codegen.Importer}); err != nil {
			return nil, err
		}
		name := nodePackageName(pkg)
		if err := pm.Link(ctx, programDir, name, dep.GetPath()); err != nil {
			return nil, err
		}
		if usesModuleSyntax {
			fmt.Fprintf(&imports, "  import * as %s from \"%s\";\n", cgstrings.Camel(ref.Name()), name)
		} else {
			fmt.Fprintf(&imports, "  const %s = require(\"%s\");\n", cgstrings.Camel(ref.Name()), name)
		}
	}
	return &pulumirpc.LinkResponse{ImportInstructions: instructions + imports.String()}, nil
}

// nodePackageName is the npm name of a package's Node.js SDK: the schema's
// language.nodejs.packageName, else @<namespace>/<name>, else @pulumi/<name>.
func nodePackageName(pkg *schema.Package) string {
	if info, ok := pkg.Language["nodejs"].(codegen.NodePackageInfo); ok && info.PackageName != "" {
		return info.PackageName
	}
	if pkg.Namespace != "" {
		return "@" + pkg.Namespace + "/" + pkg.Name
	}
	return "@pulumi/" + pkg.Name
}
