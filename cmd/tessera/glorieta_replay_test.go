package main

import "testing"

// TestReplayGlorietaExample: the example of docs/rules/glorieta.md prints
// exactly the JSON the document shows, with or without handful=6 (the
// standard game, which the handful variant must leave unchanged).
func TestReplayGlorietaExample(t *testing.T) {
	const want = `{"game":"glorieta","status":"finished","to_move":0,"moves":11,"scores":[0,0],"winners":[1],"legal_moves":0,"hands":[[0],[4]]}` + "\n"
	for _, extra := range [][]string{nil, {"--option", "handful=6"}} {
		args := append([]string{"replay", "--game", "glorieta", "--players", "2", "--seed", "1"}, extra...)
		args = append(args, "../../docs/examples/glorieta.moves")
		code, out, errs := runCmd(t, "", args...)
		if code != 0 || out != want {
			t.Fatalf("%v: exit %d, %s\ngot  %s\nwant %s", extra, code, errs, out, want)
		}
	}
}
