package main

import (
	"io"
	"os"
)

// isTerminal reports whether r is a terminal a person types at. /dev/null,
// a pipe or a file is not: a container started without -t has /dev/null,
// which is a character device, so the file mode alone cannot tell.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	return terminalFD(f)
}
