package fakediscord

import "time"

// Discord answers an interaction's first answer after 3 s with 10062
// Unknown interaction ("Receiving and Responding", docs/testing.md). Here
// the time an answer takes has two parts: what the test made it (an
// interaction sent Aged, the fake's clock moved on with Advance, a fault's
// Delay or Upload) and what the machine running the tests took (the bot's
// own work, on the wall clock). A test of the deadline itself sets the
// first, exactly; the second depends on how busy the machine is, and a
// loaded CI runner or a newcomer's laptop must not fail a test of
// something else because of it. So by default only the first part can make
// an answer late (10062 and a violation), and an answer that the second
// part pushes past the deadline is accepted and recorded as a LateAnswer,
// for a conformance run to read. WithWallClockDeadline counts both, as
// Discord does.

// LateAnswer is an interaction answered after the deadline only because
// of the machine's time: Age is the part the test set, Wall the machine's.
type LateAnswer struct {
	Interaction, Name string
	Age, Wall         time.Duration
}

// WithWallClockDeadline makes an answer late by the wall clock too, as on
// Discord: for conformance runs on a quiet machine, not for the suite.
func WithWallClockDeadline() Option {
	return func(c *config) { c.wallDeadline, c.answerPatience = true, 0 }
}

// LateAnswers are the answers accepted although the machine's time made
// them later than the deadline.
func (s *Server) LateAnswers() []LateAnswer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]LateAnswer(nil), s.st.late...)
}

// answerAgeLocked is how long after rec was made an answer arrives: the
// part the test set (age) and the machine's (wall). s.mu held.
func (s *Server) answerAgeLocked(rec *interactionRec, c *call) (age, wall time.Duration) {
	age = rec.dispatched.Sub(rec.created) + (s.offset - rec.offsetAtDispatch) + c.upload + c.delayed
	if !rec.dispatchedWall.IsZero() {
		wall = time.Since(rec.dispatchedWall)
	}
	return age, wall
}

// WithAnswerPatience sets how long the fake waits on the wall clock for
// an interactions endpoint's HTTP answer (and a PING's) before it takes
// the answer as lost, as Discord does after its 3 s (default 30 s, Slowdown
// times that under -race: a busy machine's slow answer is recorded as a
// LateAnswer, not lost). WithWallClockDeadline waits the deadline only.
func WithAnswerPatience(d time.Duration) Option { return func(c *config) { c.answerPatience = d } }
