package web

// The static files: the style sheet, the script and the icon, embedded.
// The pages name each by its content's hash (/static/app.js?v=…), so a
// browser may keep it for a year and still never runs an old script
// after a deploy: a new file is a new address.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"net/http"
	"sync"
)

// assetVersions are the static files' content hashes, by name.
var assetVersions = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	fs.WalkDir(staticFS, "static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := staticFS.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out[path[len("static/"):]] = hex.EncodeToString(sum[:6])
		return nil
	})
	return out
})

// asset is the address of a static file, with its version.
func asset(name string) string {
	return "/static/" + name + "?v=" + assetVersions()[name]
}

// serveStatic serves one embedded file: for a year when asked by its
// current version (the pages' own links), else for five minutes.
func serveStatic(files http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if v := r.URL.Query().Get("v"); v != "" && v == assetVersions()[r.PathValue("file")] {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=300")
		}
		files.ServeHTTP(w, r)
	}
}

// favicon is /favicon.ico: a browser asks for it whatever the page says,
// and a 404 there is an error in every page's console. It is the brand's
// tile (a square in four colours, as a Tessera tile's quarters), drawn
// once as a 32-pixel PNG inside an ICO container (the format allows a
// PNG image since Windows Vista, and every browser reads it).
var favicon = sync.OnceValue(func() []byte {
	const n = 32
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	quarters := []color.NRGBA{{0xc0, 0x39, 0x2b, 0xff}, {0x27, 0x6f, 0xbf, 0xff}, {0x2e, 0x9e, 0x4f, 0xff}, {0xe8, 0xb5, 0x1e, 0xff}}
	for y := range n {
		for x := range n {
			// Which triangle of the square (cut by its diagonals) holds x, y.
			dx, dy := x-n/2, y-n/2
			var q int
			switch {
			case dy < 0 && -dy >= abs(dx):
				q = 0 // top
			case dx >= 0 && dx >= abs(dy):
				q = 1 // right
			case dy >= 0 && dy >= abs(dx):
				q = 2 // bottom
			default:
				q = 3 // left
			}
			c := quarters[q]
			if x == 0 || y == 0 || x == n-1 || y == n-1 {
				c = color.NRGBA{0x24, 0x34, 0x47, 0xff} // the pages' header's blue
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var pic bytes.Buffer
	png.Encode(&pic, img)
	var ico bytes.Buffer
	le := binary.LittleEndian
	ico.Write(le.AppendUint16(nil, 0)) // reserved
	ico.Write(le.AppendUint16(nil, 1)) // an icon
	ico.Write(le.AppendUint16(nil, 1)) // one image
	ico.Write([]byte{n, n, 0, 0})      // width, height, no palette, reserved
	ico.Write(le.AppendUint16(nil, 1)) // colour planes
	ico.Write(le.AppendUint16(nil, 32))
	ico.Write(le.AppendUint32(nil, uint32(pic.Len())))
	ico.Write(le.AppendUint32(nil, 6+16)) // the image follows the directory
	ico.Write(pic.Bytes())
	return ico.Bytes()
})

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func serveFavicon(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "image/x-icon")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write(favicon())
}
