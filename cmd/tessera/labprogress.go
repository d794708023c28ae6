package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// labProgress tells on stderr how far a lab run is: a bar redrawn in place
// when stderr is a terminal, a plain line every ten seconds when it is not
// (a log file). It is the only place the lab looks at the clock, and
// nothing of it reaches the report.
type labProgress struct {
	w        io.Writer
	terminal bool
	total    int
	start    time.Time
	mu       sync.Mutex
	last     time.Time
	done     int
}

func newProgress(w io.Writer, total int, start time.Time) *labProgress {
	p := &labProgress{w: w, total: total, start: start, last: start}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

// update returns the Progress callback of a run whose games come after
// base others.
func (p *labProgress) update(base int) func(int) {
	return func(done int) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.done = base + done
		now := time.Now()
		every := 10 * time.Second
		if p.terminal {
			every = 200 * time.Millisecond
		}
		if now.Sub(p.last) < every && p.done < p.total {
			return
		}
		p.last = now
		p.print(now)
	}
}

func (p *labProgress) print(now time.Time) {
	el := now.Sub(p.start)
	rate := float64(p.done) / el.Seconds()
	left := "?"
	if p.done > 0 {
		left = (time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))).Round(time.Second).String()
	}
	line := fmt.Sprintf("%d/%d games, %.2f games/s, %s elapsed, %s left", p.done, p.total, rate, el.Round(time.Second), left)
	if !p.terminal {
		fmt.Fprintln(p.w, line)
		return
	}
	const width = 30
	fill := width * p.done / max(1, p.total)
	fmt.Fprintf(p.w, "\r[%s%s] %s ", strings.Repeat("#", fill), strings.Repeat(".", width-fill), line)
}

// finish ends the bar's line.
func (p *labProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal && p.done > 0 {
		fmt.Fprintln(p.w)
	}
}
