package ai_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tessera/engine"
)

// cards is a tiny game with hidden hands and a shuffled supply, for the
// fairness tests while the real games' Determinizers are not there: each
// seat holds three of the cards 1–12; a turn plays one, which scores its
// value if it beats the card played before it, and draws the next card of
// the supply; the game ends when the hands are empty, the higher score
// winning.
type cards struct {
	engine.Table
	Hands  [][]int
	Supply []int
	Last   int
}

type card int

func (c card) String() string { return "c" + strconv.Itoa(int(c)) }

func newCards(players int, seed uint64) *cards {
	st := &cards{Table: engine.NewTable(players)}
	r := engine.NewRand(seed)
	deck := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	st.Hands = make([][]int, players)
	for s := range st.Hands {
		st.Hands[s] = append([]int(nil), deck[:3]...)
		deck = deck[3:]
		slices.Sort(st.Hands[s])
	}
	st.Supply = deck
	return st
}

func (st *cards) Legal() []engine.Move {
	var out []engine.Move
	for _, v := range st.Hands[st.Turn] {
		out = append(out, card(v))
	}
	if st.Done {
		return nil
	}
	return out
}

func (st *cards) Parse(text string) (engine.Move, error) {
	v, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(text), "c"))
	if err != nil || !slices.Contains(st.Hands[st.Turn], v) || st.Done {
		return nil, engine.Illegalf("you hold no card %q", text)
	}
	return card(v), nil
}

func (st *cards) Apply(m engine.Move) (engine.Outcome, error) {
	c, ok := m.(card)
	if !ok || st.Done {
		return engine.Outcome{}, engine.Illegalf("not a move")
	}
	h := st.Hands[st.Turn]
	i := slices.Index(h, int(c))
	if i < 0 {
		return engine.Outcome{}, engine.Illegalf("no card %d", c)
	}
	o := engine.Outcome{Seat: st.Turn, Move: c.String()}
	st.Hands[st.Turn] = append(h[:i:i], h[i+1:]...)
	if int(c) > st.Last {
		st.Add(&o, st.Turn, int(c), "beats")
	}
	st.Last = int(c)
	if len(st.Supply) > 0 {
		st.Hands[st.Turn] = append(st.Hands[st.Turn], st.Supply[0])
		slices.Sort(st.Hands[st.Turn])
		st.Supply = st.Supply[1:]
	}
	st.Turn = st.Next(st.Turn)
	if len(st.Hands[st.Turn]) == 0 {
		st.FinishByScore(&o)
	}
	return o, nil
}

func (st *cards) Resign(s engine.Seat) engine.Outcome {
	var o engine.Outcome
	st.Table.Resign(&o, s)
	return o
}
func (st *cards) Game() string                         { return "cards" } // registered nowhere
func (st *cards) Hand(s engine.Seat) any               { return st.Hands[s] }
func (st *cards) View(v engine.Seat) engine.View       { return engine.View{Seats: st.SeatViews()} }
func (st *cards) Board() engine.Scene                  { return engine.Scene{} }
func (st *cards) HandScene(s engine.Seat) engine.Scene { return engine.Scene{} }
func (st *cards) String() string                       { return fmt.Sprint(st.Hands, st.Supply, st.Last, st.Score) }
func (st *cards) Clone() engine.State                  { return st.clone() }
func (st *cards) clone() *cards {
	c := *st
	c.Table = st.CloneTable()
	c.Hands = make([][]int, len(st.Hands))
	for s := range st.Hands {
		c.Hands[s] = append([]int(nil), st.Hands[s]...)
	}
	c.Supply = append([]int(nil), st.Supply...)
	return &c
}

// Determinize deals the cards viewer cannot see (the other hands and the
// supply) again, from their sorted pool, so the result does not depend on
// where they were.
func (st *cards) Determinize(viewer engine.Seat, r *engine.Rand) engine.State {
	c := st.clone()
	var pool []int
	for s := range c.Hands {
		if engine.Seat(s) != viewer {
			pool = append(pool, c.Hands[s]...)
		}
	}
	pool = append(pool, c.Supply...)
	slices.Sort(pool)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for s := range c.Hands {
		if engine.Seat(s) != viewer {
			n := len(c.Hands[s])
			c.Hands[s] = append([]int(nil), pool[:n]...)
			slices.Sort(c.Hands[s])
			pool = pool[n:]
		}
	}
	c.Supply = pool
	return c
}

// spy wraps a real position and records every call that could reveal what
// the searching seat cannot see.
type spy struct {
	*cards
	peeked *[]string
}

func (s spy) note(what string)                     { *s.peeked = append(*s.peeked, what) }
func (s spy) Hand(x engine.Seat) any               { s.note("Hand"); return s.cards.Hand(x) }
func (s spy) View(x engine.Seat) engine.View       { s.note("View"); return s.cards.View(x) }
func (s spy) Board() engine.Scene                  { s.note("Board"); return s.cards.Board() }
func (s spy) HandScene(x engine.Seat) engine.Scene { s.note("HandScene"); return s.cards.HandScene(x) }
func (s spy) Scores() []int                        { s.note("Scores"); return s.cards.Scores() }
func (s spy) Winners() []engine.Seat               { s.note("Winners"); return s.cards.Winners() }
func (s spy) Apply(m engine.Move) (engine.Outcome, error) {
	s.note("Apply")
	return s.cards.Apply(m)
}
func (s spy) Clone() engine.State { s.note("Clone"); return s.cards.Clone() }
