package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"reflect"
	"slices"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/database"
)

// runRatings is `tessera ratings [--rebuild]`: it computes every rating
// again from the finished games, in the order in which they changed the
// ratings (service.RebuildRatings), and compares them with the stored
// ones (exit 1 when they differ). --rebuild then stores the computed
// ratings; it writes, so the bot must be stopped.
func runRatings(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx := context.Background() // the subcommand's: it runs to its end
	var rebuild bool
	_, db, code, ok := dbFlagsWith("ratings", args, stderr, getenv, func(fs *flag.FlagSet) {
		fs.BoolVar(&rebuild, "rebuild", false, "store the ratings computed from the finished games (stop the bot first)")
	})
	if !ok {
		return code
	}
	opt := storage.Options{ReadOnly: !rebuild, LockTimeout: 200 * time.Millisecond}
	st, err := database.Open(ctx, db, opt)
	if err != nil {
		fmt.Fprintln(stderr, "tessera: ratings:", err, "(is the bot running? stop it first)")
		return 2
	}
	defer st.Close()
	computed, err := service.RebuildRatings(ctx, st)
	if err != nil {
		fmt.Fprintln(stderr, "tessera: ratings:", err)
		return 1
	}
	stored, err := st.AllRatings(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "tessera: ratings:", err)
		return 1
	}
	diff := ratingDiff(stored, computed)
	for _, d := range diff {
		fmt.Fprintln(stdout, d)
	}
	differ := "differ"
	if len(diff) == 1 {
		differ = "differs"
	}
	fmt.Fprintf(stdout, "%s computed from the finished games; %d %s from the stored ones\n", count(len(computed), "rating", "ratings"), len(diff), differ)
	if rebuild {
		if err := st.ReplaceRatings(ctx, computed); err != nil {
			fmt.Fprintln(stderr, "tessera: ratings:", err)
			return 1
		}
		fmt.Fprintln(stdout, "stored the computed ratings")
		return 0
	}
	if len(diff) > 0 {
		return 1
	}
	return 0
}

// ratingDiff lists, one line each, the ratings that are not exactly alike
// in stored and computed (compared field by field, floats bit for bit).
func ratingDiff(stored, computed []tessera.Rating) []string {
	key := func(r tessera.Rating) string { return r.GuildID + "/" + r.Game + "/" + r.UserID }
	have := map[string]tessera.Rating{}
	for _, r := range stored {
		have[key(r)] = r
	}
	var out []string
	for _, c := range computed {
		s, ok := have[key(c)]
		delete(have, key(c))
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("missing: %s (computed mu %v sigma %v)", key(c), c.Mu, c.Sigma))
		case !sameRating(s, c):
			out = append(out, fmt.Sprintf("differs: %s: stored mu %v sigma %v after %s, computed mu %v sigma %v after %d", key(c), s.Mu, s.Sigma, count(s.Games, "game", "games"), c.Mu, c.Sigma, c.Games))
		}
	}
	for k := range have {
		out = append(out, "not computed from any game: "+k)
	}
	return out
}

func sameRating(a, b tessera.Rating) bool {
	b.History = slices.Clone(b.History)
	if len(a.History) != len(b.History) {
		return false
	}
	for i := range a.History {
		if !a.History[i].At.Equal(b.History[i].At) {
			return false
		}
		b.History[i].At = a.History[i].At // compare the rest exactly (b.History is a copy)
	}
	return reflect.DeepEqual(a, b)
}
