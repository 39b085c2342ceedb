package hostkit

// GeneratePackage as Pulumi's language hosts do it: bind the schema the engine sent against the
// engine's schema loader (dangling references allowed: a referenced package may be one the engine
// cannot load), return binding errors as diagnostics with nothing written, else write every file
// the language's code generator returns under the requested directory.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Generator turns a bound package into files (paths relative to the SDK's directory), as the
// language's own host calls its code generator, with any warnings of its own.
type Generator func(
	ctx context.Context, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader,
) (map[string][]byte, hcl.Diagnostics, error)

// GeneratePackage serves GeneratePackage with gen, binding through the engine's schema loader.
func GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest, gen Generator,
) (*pulumirpc.GeneratePackageResponse, error) {
	if req.GetDirectory() == "" {
		return nil, errors.New("GeneratePackage needs a directory to write to")
	}
	if req.GetLoaderTarget() == "" {
		return nil, errors.New("GeneratePackage needs the address of the engine's schema loader (loaderTarget)")
	}
	client, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader at %q: %w", req.GetLoaderTarget(), err)
	}
	defer client.Close()
	loader := schema.NewCachedLoader(client)
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("reading the schema the engine sent: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	files, warnings, err := gen(ctx, pkg, req, loader)
	if err != nil {
		return nil, err
	}
	if err := WriteSDKFiles(req.GetDirectory(), files); err != nil {
		return nil, err
	}
	diags = append(diags, warnings...)
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

// WriteSDKFiles writes files under dir with the modes Pulumi's hosts use (0700 directories, 0600
// files), refusing a name that would land outside dir (an overlay file's name comes from the user).
func WriteSDKFiles(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		rel := filepath.Clean(filepath.FromSlash(name))
		if filepath.IsAbs(rel) || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("refusing to write %q: not a path inside the SDK's directory", name)
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
			return fmt.Errorf("could not create output directory %s: %w", filepath.Dir(name), err)
		}
		if err := os.WriteFile(out, files[name], 0o600); err != nil {
			return fmt.Errorf("could not write output file %s: %w", name, err)
		}
	}
	return nil
}
