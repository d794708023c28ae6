package bot_test

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/render"
)

// TestReplayGIF: /replay of a game in play answers with an animated GIF,
// one frame per position; the first and the last frames are, below their
// caption band, the board pictures the thread showed for those positions:
// every pixel the palette's nearest colour to the picture's, every flat
// colour (0.1% of the picture or more) exact, 98% of the pixels exact. Its parts, its bad ranges and strangers elsewhere.
func TestReplayGIF(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	startPic := w.status(t).Files[0].Image() // the status message's first version: move 0
	if startPic == nil {
		t.Fatal("no start picture")
	}
	players := []*discordgo.User{w.ana, w.bo}
	var last image.Image
	const moves = 6
	for turn := 0; turn < moves; turn++ {
		u := players[turn%2]
		post := w.play(t, u, w.suggest(t, u, "")[0].Value.(string))
		last = post.Files[0].Image()
	}

	cy := w.srv.AddUser("cy") // not a player: sees what the thread shows
	r := w.respond(t, w.srv.Slash("replay").By(cy).In(w.srv.GuildID, w.thread))
	fs := files(r)
	if ephemeral(r) || len(fs) != 1 || fs[0].Format != "gif" || fs[0].ContentType != "image/gif" || !strings.Contains(text(r), "moves 1 to 6 of 6") {
		t.Fatalf("/replay: %q (ephemeral %v, %d files)", text(r), ephemeral(r), len(fs))
	}
	anim, err := gif.DecodeAll(bytes.NewReader(fs[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != moves+1 {
		t.Fatalf("%d frames, want %d (the start and one per move)", len(anim.Image), moves+1)
	}
	if anim.Delay[moves] <= anim.Delay[0] {
		t.Fatalf("the final position is not held longer: delays %v", anim.Delay)
	}
	frames := composite(anim)
	samePicture(t, "first frame", frames[0], startPic, anim.Config.ColorModel.(color.Palette))
	samePicture(t, "last frame", frames[moves], last, anim.Config.ColorModel.(color.Palette))

	// A part: the position before move 2, then moves 2 to 4.
	r = w.respond(t, w.srv.Slash("replay", fakediscord.Str("game", "1"), fakediscord.Int("from", 2), fakediscord.Int("to", 4)).By(w.ana))
	if len(files(r)) != 1 {
		t.Fatalf("/replay from:2 to:4: %q", text(r))
	}
	if part, err := gif.DecodeAll(bytes.NewReader(files(r)[0].Data)); err != nil || len(part.Image) != 4 {
		t.Fatalf("/replay from:2 to:4: %v frames, %v", len(part.Image), err)
	}
	for _, c := range [][2]int64{{5, 2}, {7, 0}, {0, 9}} {
		opts := []fakediscord.Opt{fakediscord.Str("game", "1")}
		if c[0] != 0 {
			opts = append(opts, fakediscord.Int("from", c[0]))
		}
		if c[1] != 0 {
			opts = append(opts, fakediscord.Int("to", c[1]))
		}
		r := w.respond(t, w.srv.Slash("replay", opts...).By(w.ana))
		if !ephemeral(r) || len(files(r)) != 0 || !strings.Contains(text(r), "1 ≤ from ≤ to ≤ 6") {
			t.Fatalf("/replay from:%d to:%d: %q", c[0], c[1], text(r))
		}
	}

	// From another server: nothing for a stranger, privately for a player.
	other := w.srv.AddGuild("other")
	ch := w.srv.AddChannel(other, "general")
	carl := w.srv.AddUser("carl")
	r = w.respond(t, w.srv.Slash("replay", fakediscord.Str("game", "1")).By(carl).In(other, ch))
	if !ephemeral(r) || text(r) != "There is no game #1." || len(files(r)) != 0 {
		t.Fatalf("/replay by a stranger elsewhere: %q", text(r))
	}
	r = w.respond(t, w.srv.Slash("replay", fakediscord.Str("game", "1")).By(w.bo).In(other, ch))
	if !ephemeral(r) || len(files(r)) != 1 {
		t.Fatalf("/replay by a player elsewhere: %q (ephemeral %v)", text(r), ephemeral(r))
	}
}

// composite plays the animation: the picture on screen after each frame.
func composite(anim *gif.GIF) []*image.RGBA {
	screen := image.NewRGBA(image.Rect(0, 0, anim.Config.Width, anim.Config.Height))
	var out []*image.RGBA
	for _, f := range anim.Image {
		draw.Draw(screen, f.Bounds(), f, f.Bounds().Min, draw.Over)
		out = append(out, image.NewRGBA(screen.Rect))
		copy(out[len(out)-1].Pix, screen.Pix)
	}
	return out
}

// samePicture checks that frame shows want below its caption band: each
// pixel the palette's colour nearest to want's (the first of equals), and
// the flat colours and 98% of all pixels exactly want's.
func samePicture(t *testing.T, what string, frame *image.RGBA, want image.Image, pal color.Palette) {
	t.Helper()
	b := want.Bounds()
	if frame.Rect.Dx() != b.Dx() || frame.Rect.Dy() < b.Dy()+render.CaptionHeight {
		t.Fatalf("%s: %v, the board picture %v", what, frame.Rect, b)
	}
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(want.At(x, y)).(color.RGBA)]++
		}
	}
	exact, total := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := want.At(x, y).RGBA()
			wc := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}
			got := frame.RGBAAt(x-b.Min.X, y-b.Min.Y+render.CaptionHeight)
			if near := nearestOpaque(pal, wc); got != near {
				t.Fatalf("%s: pixel (%d,%d) is %v; the board picture has %v, nearest in the palette %v", what, x, y, got, wc, near)
			}
			total++
			if got == wc {
				exact++
			} else if counts[wc]*1000 >= b.Dx()*b.Dy() {
				t.Fatalf("%s: pixel (%d,%d) is %v, not the flat colour %v (%d pixels)", what, x, y, got, wc, counts[wc])
			}
		}
	}
	if exact*100 < total*98 {
		t.Fatalf("%s: only %d of %d pixels exact", what, exact, total)
	}
	t.Logf("%s: %d of %d pixels exact", what, exact, total)
}

func nearestOpaque(pal color.Palette, c color.RGBA) color.RGBA {
	best, bd := color.RGBA{}, 1<<30
	for _, p := range pal {
		q := color.RGBAModel.Convert(p).(color.RGBA)
		if q.A == 0 {
			continue
		}
		dr, dg, db := int(c.R)-int(q.R), int(c.G)-int(q.G), int(c.B)-int(q.B)
		if d := dr*dr + dg*dg + db*db; d < bd {
			best, bd = q, d
		}
	}
	return best
}
