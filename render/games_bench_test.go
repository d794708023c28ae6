package render_test

import (
	"fmt"
	"testing"
	"time"

	"tessera/engine"
	"tessera/internal/cputime"
	"tessera/render"
)

// boardSetups are the games the board benchmarks play: every game, two
// players (or its least), and every TilingKing board with three.
func boardSetups() []engine.Setup {
	var setups []engine.Setup
	for _, g := range engine.Games() {
		n := max(2, g.MinPlayers)
		if g.ID == "tilingking" {
			for _, board := range []string{"square9", "square11", "hex", "tri"} {
				setups = append(setups, engine.Setup{Game: g.ID, Players: 3, Seed: 5, Options: map[string]string{"board": board}})
			}
			continue
		}
		setups = append(setups, engine.Setup{Game: g.ID, Players: n, Seed: 5})
	}
	return setups
}

// boardName names a setup's benchmarks: the game, and its board if any.
func boardName(setup engine.Setup) string {
	name := setup.Game
	if v := setup.Options["board"]; v != "" {
		name += "-" + v
	}
	return name
}

// BenchmarkBoardEveryGame draws the move picture of every game (and
// every TilingKing board) at its start, midway and at its end, as the
// service does (BoardOn, on its kind's start dealt from seed 1), and
// reports the CPU time of each (cpu-ms/op, the encoder's goroutines
// included) and the file's size. docs/benchmarks.md keeps the table.
// Each board is drawn as its game's first picture in the process (no
// recent board kept): BenchmarkBoardSuccessiveMoves measures a game's
// moves one after the other.
func BenchmarkBoardEveryGame(b *testing.B) {
	for _, setup := range boardSetups() {
		st, err := engine.New(setup)
		if err != nil {
			b.Fatal(err)
		}
		s1 := setup
		s1.Seed = 1
		start, _ := engine.New(s1)
		base := start.Board()
		// A game played to its end with random moves; its start, middle
		// and last positions.
		var states []engine.State
		r := engine.NewRand(setup.Seed)
		for !st.Over() {
			states = append(states, st.Clone())
			l := st.Legal()
			if _, err := st.Apply(l[r.IntN(len(l))]); err != nil {
				b.Fatal(err)
			}
		}
		states = append(states, st)
		name := boardName(setup)
		names := []string{"Ana", "Bo", "Cy", "Di"}[:setup.Players]
		for _, at := range []struct {
			stage string
			st    engine.State
		}{{"start", states[0]}, {"middle", states[len(states)/2]}, {"end", states[len(states)-1]}} {
			sc := at.st.Board()
			p := render.NewPanel(fmt.Sprintf("%s · game #123456", setup.Game), at.st.View(engine.NoSeat), names)
			b.Run(name+"/"+at.stage, func(b *testing.B) {
				var size int
				var cpu time.Duration
				for b.Loop() {
					// Each board as the first of its game: the board
					// drawn by the loop before would otherwise be kept as
					// its layer, and nothing would differ.
					render.ForgetRecent()
					c0 := cputime.Used()
					data, err := render.BoardOn(base, sc, p)
					cpu += cputime.Used() - c0
					if err != nil {
						b.Fatal(err)
					}
					size = len(data)
				}
				b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
				b.ReportMetric(float64(size), "png-bytes")
			})
		}
	}
}

// BenchmarkBoardSuccessiveMoves draws the move pictures of one random game
// of every game (and every TilingKing board) move after move, as the
// service draws a game's moves one after the other: each board may be
// drawn on the board of the move before, kept by the renderer. An op is
// one move's board; after the game's last move the next op starts it
// again from its first board, drawn untimed as the first of its game
// (cpu-ms/op is the mean over the game's moves but its first).
func BenchmarkBoardSuccessiveMoves(b *testing.B) {
	for _, setup := range boardSetups() {
		st, err := engine.New(setup)
		if err != nil {
			b.Fatal(err)
		}
		s1 := setup
		s1.Seed = 1
		start, _ := engine.New(s1)
		base := start.Board()
		names := []string{"Ana", "Bo", "Cy", "Di"}[:setup.Players]
		type board struct {
			sc engine.Scene
			p  render.Panel
		}
		var boards []board
		r := engine.NewRand(setup.Seed)
		for {
			boards = append(boards, board{st.Board(), render.NewPanel(fmt.Sprintf("%s · game #123456", setup.Game), st.View(engine.NoSeat), names)})
			if st.Over() || len(boards) > 300 { // a puzzle played at random may never end
				break
			}
			l := st.Legal()
			if _, err := st.Apply(l[r.IntN(len(l))]); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(boardName(setup), func(b *testing.B) {
			var cpu time.Duration
			next := len(boards)
			for b.Loop() {
				if next == len(boards) {
					b.StopTimer()
					render.ForgetRecent()
					if _, err := render.BoardOn(base, boards[0].sc, boards[0].p); err != nil {
						b.Fatal(err)
					}
					next = 1
					b.StartTimer()
				}
				c0 := cputime.Used()
				_, err := render.BoardOn(base, boards[next].sc, boards[next].p)
				cpu += cputime.Used() - c0
				if err != nil {
					b.Fatal(err)
				}
				next++
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
