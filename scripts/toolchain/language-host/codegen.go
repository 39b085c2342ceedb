package main

// Program generation, as Pulumi's own pulumi-language-nodejs does it: the engine sends PCL (from
// `pulumi import --generate-code`, or a directory of it from `pulumi convert`) and the address of a
// schema loader it serves; we bind the PCL against the schemas that loader hands out (so provider
// plugins answer GetSchema through the engine, never through us) and print it as TypeScript with
// Pulumi's Node.js code generator.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
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
