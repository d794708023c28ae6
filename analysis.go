package tessera

import "time"

// AnalysisStatus is where a game's analysis (/analyze) stands.
type AnalysisStatus string

// Analysis statuses. A queued analysis may have positions already: it
// was running when its process stopped, and resumes from there.
const (
	AnalysisQueued AnalysisStatus = "queued" // waiting or running: in the queue
	AnalysisDone   AnalysisStatus = "done"   // every position analysed; asking again answers from it
	AnalysisFailed AnalysisStatus = "failed" // given up (Error says why); asking again starts it anew
)

// Analysis is a finished game's analysis, kept so that asking again
// answers at once and a restart resumes an unfinished one: the win chance
// of each seat at every position, from the information of the seat to
// move there, and the move it would have preferred.
type Analysis struct {
	GameID    uint64         `json:"game_id"`
	Status    AnalysisStatus `json:"status"`
	Requested time.Time      `json:"requested"`            // the queue's order (then GameID)
	UserID    string         `json:"user_id"`              // who asked
	ChannelID string         `json:"channel_id,omitempty"` // where they asked
	// Iterations is the search budget of each position (the setting in
	// force when it was asked), so a resumed analysis goes on alike.
	Iterations int `json:"iterations"`
	// Started is set once a process began working on it; Resumed counts
	// the restarts that took it up again (a restart resumes it once: one
	// that keeps taking the process down is not tried forever).
	Started bool   `json:"started,omitempty"`
	Resumed int    `json:"resumed,omitempty"`
	Error   string `json:"error,omitempty"`
	// Owner is the process working on it until Lease (renewed with every
	// position), so that processes sharing a database analyse a game once;
	// a process stopping gives it back (Owner "").
	Owner string    `json:"owner,omitempty"`
	Lease time.Time `json:"lease,omitempty"`
	// MessageID is its progress line's message in the game's place, which
	// the courier posts once and then edits.
	MessageID string `json:"message_id,omitempty"`
	// Positions are the positions analysed so far, in order: before the
	// first move, after each move; the last is the end's result.
	Positions []AnalysedPosition `json:"positions,omitempty"`
}

// AnalysedPosition is one position of a game's analysis.
type AnalysedPosition struct {
	Seat int       `json:"seat"` // to move, 0-based; -1 at the end
	Win  []float64 `json:"win"`  // each seat's chance of winning, as Seat estimates it
	// Best is the move Seat's search preferred, BestWin the chances
	// after it.
	Best    string    `json:"best,omitempty"`
	BestWin []float64 `json:"best_win,omitempty"`
	// Played is the record's entry played from here ("" at the end), and
	// PlayedWin the chances after it as Seat judged them before it (nil
	// for an entry that is no move, a resignation or a timeout; in
	// analyses before issue #49 also when the search tried the move too
	// little, the next position's chances standing for it then).
	Played    string    `json:"played,omitempty"`
	PlayedWin []float64 `json:"played_win,omitempty"`
	// Public is each seat's chance from a spectator's view, the same view
	// at every position (the shared chart), and Own[s] seat s's chance
	// from its own view (issue #49, ai.Step). Analyses made before them
	// lack both and are shown as they were.
	Public []float64 `json:"public,omitempty"`
	Own    []float64 `json:"own,omitempty"`
}
