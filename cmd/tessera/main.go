// Command tessera runs the Tessera bot and its tools.
//
//	tessera [run]        the bot (Discord with DISCORD_TOKEN, else a local console)
//	tessera replay ...   replay a moves file and print the position as JSON
//	tessera backup PATH  a consistent copy of the database, while the bot runs
//	tessera check        verify the database
package main

import (
	"fmt"
	"io"
	"os"

	_ "tessera/engine/games"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "run"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "run":
		return runBot(args, stdin, stdout, stderr, os.Getenv)
	case "replay":
		return runReplay(args, stdin, stdout, stderr)
	case "backup":
		return runBackup(args, stdout, stderr, os.Getenv)
	case "check":
		return runCheck(args, stdout, stderr, os.Getenv)
	case "playouts":
		return runPlayouts(args, stdout, stderr)
	case "ai":
		return runAI(args, stdin, stdout, stderr)
	case "lab":
		return runLab(args, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "tessera: unknown command %q\n%s", cmd, usage)
	return 2
}

const usage = `usage: tessera [command] [flags]

commands:
  run       run the bot (the default): Discord when DISCORD_TOKEN is set,
            otherwise a local console
  replay    replay a moves file and print the position as JSON
  backup    write a consistent copy of the database (safe while the bot runs)
  check     verify the database: its structure and that every game replays
  help      this text
`
