package main

// The .NET SDK's package icon, offline. Pulumi's C# generator writes a logo.png (the csproj names it
// as the NuGet package icon) that it downloads with http.Get: the schema's logoUrl, else a generic
// Pulumi logo from GitHub. GitHub is out of reach here, so this host answers that request itself:
//   - no logoUrl: a plain generic icon drawn by the host (genericLogo), without any network access;
//   - a logoUrl: downloaded as the generator would, and used when that works; when it does not
//     (offline, an error status), the generic icon, with a warning saying so, instead of failing the
//     whole SDK for its icon.
// The generator's own http.Get is served from what was resolved here (logoTransport), so its code
// runs unchanged.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// generatorDefaultLogoURL is what pkg/codegen/dotnet (v3.228.0, see go.mod) downloads when the
// schema has no logoUrl. A unit test fails if the generator ever asks for another URL.
const generatorDefaultLogoURL = "https://raw.githubusercontent.com/pulumi/pulumi/" +
	"dbc96206bec722b7791a22ff50e895ab7c0abdc0/sdk/dotnet/pulumi_logo_64x64.png"

// logoDownloadTimeout bounds the download of a schema's logoUrl.
const logoDownloadTimeout = 30 * time.Second

// logoTransport serves GET requests for the logo URLs resolveLogo has resolved and hands every
// other request to next. It is installed as http.DefaultTransport, which the generator's http.Get
// uses.
type logoTransport struct {
	next http.RoundTripper

	mu    sync.Mutex
	logos map[string][]byte
}

var (
	logosOnce sync.Once
	logos     *logoTransport
)

// installLogoTransport puts a logoTransport in front of http.DefaultTransport (once per process).
func installLogoTransport() *logoTransport {
	logosOnce.Do(func() {
		logos = &logoTransport{next: http.DefaultTransport, logos: map[string][]byte{}}
		http.DefaultTransport = logos
	})
	return logos
}

func (t *logoTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet || req.Method == "" {
		t.mu.Lock()
		data, ok := t.logos[req.URL.String()]
		t.mu.Unlock()
		if ok {
			return &http.Response{
				Status:        "200 OK",
				StatusCode:    http.StatusOK,
				Proto:         "HTTP/1.1",
				ProtoMajor:    1,
				ProtoMinor:    1,
				Header:        http.Header{"Content-Type": {"image/png"}, "Content-Length": {strconv.Itoa(len(data))}},
				Body:          io.NopCloser(bytes.NewReader(data)),
				ContentLength: int64(len(data)),
				Request:       req,
			}, nil
		}
	}
	return t.next.RoundTrip(req)
}

// resolveLogo decides the bytes the generator gets for the package's logo (logoURL, "" for none),
// and serves them from then on. A warning says when a logoUrl could not be used.
func (t *logoTransport) resolveLogo(ctx context.Context, logoURL string) hcl.Diagnostics {
	url, data, diags := logoURL, []byte(nil), hcl.Diagnostics(nil)
	if url == "" || url == generatorDefaultLogoURL {
		url, data = generatorDefaultLogoURL, genericLogo()
	} else if downloaded, err := t.download(ctx, url); err == nil {
		data = downloaded
	} else {
		data = genericLogo()
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary: fmt.Sprintf("could not download the package's logoUrl %s (%v): "+
				"the .NET SDK's logo.png is a generic icon", url, err),
		})
	}
	t.mu.Lock()
	t.logos[url] = data
	t.mu.Unlock()
	return diags
}

func (t *logoTransport) download(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, logoDownloadTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// genericLogo is a 64x64 PNG, a neutral slate disc on a transparent ground: a stand-in icon, not
// anyone's logo.
func genericLogo() []byte {
	const size = 64
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	fill := color.NRGBA{R: 0x47, G: 0x55, B: 0x69, A: 0xff}
	const r = size/2 - 2
	for y := range size {
		for x := range size {
			dx, dy := 2*x+1-size, 2*y+1-size // doubled offsets from the centre
			if dx*dx+dy*dy <= 4*r*r {
				img.SetNRGBA(x, y, fill)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory image cannot fail
	}
	return buf.Bytes()
}
