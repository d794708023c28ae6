// Package console is a local transport for the service: lines such as
// "ana: /new elemental bo" and "bo: /move d5 RGBY" drive the same commands
// as Discord, and pictures are written to a folder. It lets a newcomer play
// at once, without a Discord token, and lets tests script whole games.
package console

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"tessera"
	"tessera/delivery"
	"tessera/service"
)

// Service is the service as the console sees it: a transport of players'
// input (service.Players) that also runs the computer's moves and the
// analyses in step with what it prints (service.Workers).
type Service interface {
	service.Players
	service.Workers
}

// Console reads command lines and prints the replies.
type Console struct {
	svc     Service
	courier *delivery.Courier // prints svc's announcements (sink)
	out     io.Writer
	dir     string // where pictures go
	channel string
	n       int
	// shown is what this batch of output (a line's, or a delivery's
	// while the console waits) printed already, so that it is printed
	// once: the pictures written (by name, with their content's hash)
	// and the messages' texts, by id. The courier sends a message's
	// every edit, and a picture with each post that carries it.
	shown batch
	// sinkMu is held by each of the sink's methods: the courier delivers
	// several games at once (courier.workers), and their posts share the
	// output, the message counter and the batch.
	sinkMu sync.Mutex
}

// batch is what one batch of output printed.
type batch struct {
	pictures map[string][sha256.Size]byte
	texts    map[string]string // a message's text, by its id
	edited   map[string]bool   // the messages whose edit was printed
}

// newBatch starts a batch of output: what earlier batches printed is
// printed again when it comes again (/board shows the board it showed).
func (c *Console) newBatch() {
	c.shown = batch{pictures: map[string][sha256.Size]byte{}, texts: map[string]string{}, edited: map[string]bool{}}
}

// New returns a console writing pictures to dir, printing what courier
// delivers (svc's outbox) after each command and as it comes.
func New(svc Service, courier *delivery.Courier, out io.Writer, dir string) *Console {
	svc.SetBot(service.User{ID: BotName, Name: service.DefaultBotName})
	c := &Console{svc: svc, courier: courier, out: &screen{w: out}, dir: dir, channel: "console"}
	c.newBatch()
	return c
}

// screen is the console's output. It knows when the prompt waits for a
// line, so that what is delivered meanwhile (a move made on a game's
// page) begins on a line of its own, and Run prompts again after it.
type screen struct {
	w       io.Writer
	waiting bool // the prompt is the last thing written
}

func (s *screen) Write(p []byte) (int, error) {
	if s.waiting && len(p) > 0 {
		s.waiting = false
		if _, err := io.WriteString(s.w, "\n"); err != nil {
			return 0, err
		}
	}
	return s.w.Write(p)
}

// Help is the console's usage: examples, then every command of the
// service's table with the console's way of writing it, then the
// console's stand-ins for Discord's buttons and autocomplete.
func Help() string {
	var b strings.Builder
	b.WriteString(`Type commands as "<player>: /<command> ...", for example:
  ana: /new elemental bo borders=RBGY   challenge bo (game options after the names)
  bo: /accept                           accept the newest challenge (or /accept 3)
  ana: /move d5 RGBY                    play a move (add #3 first when you have several games)
  ana: /new elemental bo clock=3d       with a clock (3d per move, or clock=bank=7d,inc=1d,cap=14d)
  ana: /new closure tessera level=hard  play the computer (easy, normal or hard)
  ana: /new tilingking seats=3          an open challenge; others /join #1 (/challenges lists them)
The commands:
`)
	line := func(name, args, about string) {
		fmt.Fprintf(&b, "  %-34s %s\n", strings.TrimSpace("/"+name+" "+args), about)
	}
	for _, cmd := range service.Commands() {
		if len(cmd.Subcommands) > 0 {
			subcommandLines(cmd.Name, cmd, line)
			continue
		}
		line(cmd.Name, usage(cmd), Reword(cmd.Description))
	}
	for _, name := range extraOrder {
		x := extras[name]
		line(name, x.usage, x.about)
	}
	b.WriteString(`With several games, name one with #id after the command: ana: /move #2 d5 RGBY.
Pictures are written to the pictures folder; "help" shows this, "quit" (or Ctrl-C) ends.`)
	return b.String()
}

// MaxLine is the longest line the console reads (64 KB); a longer one is
// refused with a message, and the console goes on.
const MaxLine = 64 << 10

// Wording is the console's syntax for the service's hints (a game is
// named "#2" after the command, and /moves lists the legal moves).
var Wording = service.Wording{PickGame: "#id after the command (ana: /move #2 ...)", MoveList: "/moves", Channel: "the console", Server: "the console"}

// Reword says a command's description in the console's words: its
// server and channel are the console.
func Reword(text string) string {
	return strings.NewReplacer("this server", Wording.Server, "this channel", Wording.Channel).Replace(text)
}

// Presenter is the console's: "@name", threads by name, moments in the
// reader's zone (service.Plain), and its Wording.
type Presenter struct{ service.Plain }

// Link names a game's place as the console shows it (Link).
func (Presenter) Link(guildID, channelID string) string { return Link(guildID, channelID) }

// Wording is the console's.
func (Presenter) Wording() service.Wording { return Wording }

// Plain is a service text as a terminal shows it: its tokens rendered by
// the console's Presenter, and Discord's markdown for bold (**) and code
// (`) removed.
func Plain(text string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(service.Render(text, Presenter{}))
}

// input is one line read, or the end of the input.
type input struct {
	text    string
	tooLong bool
	err     error // io.EOF at the end
}

// Run reads lines until the end of the input, "quit", or ctx ends (the
// command stops it on Ctrl-C and SIGTERM), and returns nil then. While it
// waits for a line it prints what the service announces meanwhile (a
// move made on a game's page, and the computer's answer to it), as the
// bot posts it on Discord, and prompts again.
func (c *Console) Run(ctx context.Context, in io.Reader) error {
	lines := make(chan input)
	done := make(chan struct{})
	defer close(done)
	// The reading goroutine may stay blocked on a terminal after Run
	// returns; the process is ending then.
	go readLines(in, lines, done)
	scr, ok := c.out.(*screen)
	if !ok {
		scr = &screen{w: c.out}
		c.out = scr
	}
	fmt.Fprintln(c.out, Help())
	for {
		if ctx.Err() != nil {
			fmt.Fprintln(c.out, "\n(stopped)")
			return nil
		}
		if !scr.waiting {
			fmt.Fprint(c.out, "> ")
			scr.waiting = true
		}
		var l input
		select {
		case <-ctx.Done():
			fmt.Fprintln(c.out, "\n(stopped)")
			return nil
		case <-c.svc.Wake():
			// Something was announced besides the lines typed here (a
			// command's own announcements were delivered after it, and
			// this finds nothing then): print it now, not after the next
			// line. Anything printed ends the prompt's line; the loop
			// prompts again.
			c.newBatch()
			c.deliver(ctx)
			continue
		case l = <-lines:
		}
		// On a terminal the line typed ends the prompt's line; a script's
		// lines are not echoed, and its replies follow the prompt.
		scr.waiting = false
		switch {
		case l.tooLong:
			fmt.Fprintf(c.out, "(that line is longer than %d KB and was not read)\n", MaxLine>>10)
			continue
		case l.err != nil && l.text == "":
			fmt.Fprintln(c.out)
			if l.err == io.EOF {
				return nil
			}
			return l.err
		}
		line := strings.TrimSpace(l.text)
		if line == "quit" || line == "exit" {
			return nil
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c.Line(ctx, line)
	}
}

// readLines sends the lines of r, each at most MaxLine bytes (a longer
// one is sent as tooLong, its text dropped), then the end of r.
func readLines(r io.Reader, out chan<- input, done <-chan struct{}) {
	send := func(in input) bool {
		select {
		case out <- in:
			return true
		case <-done:
			return false
		}
	}
	br := bufio.NewReaderSize(r, 4096)
	for {
		var buf []byte
		long := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !long {
				buf = append(buf, chunk...)
				if len(strings.TrimRight(string(buf), "\r\n")) > MaxLine {
					long, buf = true, nil
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if long || len(buf) > 0 {
			if !send(input{text: string(buf), tooLong: long}) {
				return
			}
		}
		if err != nil {
			send(input{err: err})
			return
		}
	}
}

// Line runs one command line, prints its reply, then delivers what the
// command announced (posts, status edits, direct messages).
func (c *Console) Line(ctx context.Context, line string) {
	c.newBatch()
	r, err := c.Do(line)
	if err != nil {
		r = c.svc.Fail(err)
	}
	who, _, _ := strings.Cut(line, ":")
	c.print(r, strings.TrimSpace(who))
	if r.Event != 0 || r.Challenge != 0 {
		// The reply is a tournament's post or a challenge: its entries
		// and buttons are edited there (the sink prints the edits).
		if err := c.svc.Answered(ctx, r, c.channel, postID(r)); err != nil {
			fmt.Fprintln(c.out, "recording the post failed:", err)
		}
	}
	c.deliver(ctx)
}

// deliver prints what the service announced (posts, status edits, direct
// messages), then makes the computer's moves and the analyses asked for,
// each with its posts.
func (c *Console) deliver(ctx context.Context) {
	if _, err := c.courier.Deliver(ctx, sink{c}); err != nil {
		fmt.Fprintln(c.out, "delivery failed:", err)
	}
	c.playAI(ctx)
	c.analyze(ctx)
}

// sink prints what the bot would post on Discord. Its methods are called
// from the courier's workers at once, so each holds the console's sinkMu.
type sink struct{ c *Console }

// Presenter makes the courier render the console's words.
func (sink) Presenter() service.Presenter { return Presenter{} }

func (s sink) Thread(_ context.Context, channelID, _, name string) (string, error) {
	s.c.sinkMu.Lock()
	defer s.c.sinkMu.Unlock()
	fmt.Fprintf(s.c.out, "  [new thread %q]\n", name)
	return "thread:" + name, nil
}

func (s sink) Post(_ context.Context, channelID string, m service.Message, _ string) (string, error) {
	s.c.sinkMu.Lock()
	defer s.c.sinkMu.Unlock()
	s.c.n++
	s.c.shown.text(fmt.Sprint("msg", s.c.n), m.Text)
	fmt.Fprintf(s.c.out, "  [%s] %s\n", short(channelID), strings.ReplaceAll(Plain(m.Text), "\n", "\n    "))
	s.c.files(m.Files)
	for _, b := range m.Buttons {
		fmt.Fprintf(s.c.out, "    %s\n", button(b))
	}
	return fmt.Sprint("msg", s.c.n), nil
}

func (s sink) Edit(_ context.Context, channelID, messageID string, m service.Message) error {
	s.c.sinkMu.Lock()
	defer s.c.sinkMu.Unlock()
	if !s.c.shown.text(messageID, m.Text) {
		return nil // as printed already in this batch
	}
	what := "the tournament's post"
	switch {
	case strings.HasPrefix(messageID, challengePostPrefix):
		what = "the challenge"
	case !strings.HasPrefix(messageID, eventPostPrefix):
		// Its text is not printed, so once a batch says it all (an
		// analysis edits its progress line once a position).
		if !s.c.shown.edited[messageID] {
			s.c.shown.edited[messageID] = true
			fmt.Fprintf(s.c.out, "  [%s] (status message updated)\n", short(channelID))
		}
		return nil
	}
	fmt.Fprintf(s.c.out, "  [%s] (%s now reads) %s\n", short(channelID), what, strings.ReplaceAll(Plain(m.Text), "\n", "\n    "))
	for _, b := range m.Buttons {
		fmt.Fprintf(s.c.out, "    %s\n", button(b))
	}
	return nil
}

// text records a message's text as printed, and reports whether it is
// new in this batch (false: the same text was printed already).
func (b *batch) text(id, text string) bool {
	if old, ok := b.texts[id]; ok && old == text {
		return false
	}
	b.texts[id] = text
	return true
}

// picture reports whether a picture is new in this batch: another with
// its name and content was printed already.
func (b *batch) picture(f service.File) bool {
	sum := sha256.Sum256(f.Data)
	if old, ok := b.pictures[f.Name]; ok && old == sum {
		return false
	}
	b.pictures[f.Name] = sum
	return true
}

// eventPostPrefix marks the ids the console gives tournaments' posts (its
// replies have none of their own), so that their edits are printed.
const eventPostPrefix = "event-post-"

// challengePostPrefix marks the ids of challenges' posts, likewise.
const challengePostPrefix = "challenge-post-"

// postID is the id the console gives the post of reply r: a tournament's
// or a challenge's.
func postID(r service.Reply) string {
	if r.Event != 0 {
		return fmt.Sprint(eventPostPrefix, r.Event)
	}
	return fmt.Sprint(challengePostPrefix, r.Challenge)
}

func (s sink) DM(_ context.Context, userID string, m service.Message, _ string) error {
	s.c.sinkMu.Lock()
	defer s.c.sinkMu.Unlock()
	fmt.Fprintf(s.c.out, "  [direct message to %s] %s\n", userID, strings.ReplaceAll(Plain(m.Text), "\n", " "))
	for _, b := range m.Buttons {
		fmt.Fprintf(s.c.out, "    %s\n", button(b))
	}
	return nil
}

// button is how the console shows a button: the command a click is, or
// the address a link button opens.
func button(b service.Button) string {
	if b.URL != "" {
		return fmt.Sprintf("[%s: %s]", b.Label, b.URL)
	}
	return fmt.Sprintf("[%s: /click %s]", b.Label, b.ID)
}

func (s sink) React(_ context.Context, _, _, emoji string) error {
	s.c.sinkMu.Lock()
	defer s.c.sinkMu.Unlock()
	fmt.Fprintf(s.c.out, "  [%s]\n", emoji)
	return nil
}

func short(place string) string {
	name := strings.TrimPrefix(place, "thread:")
	if i := strings.Index(name, ":"); i > 0 && place != name {
		name = name[:i]
	}
	return name
}

// Do runs one command line and returns the reply.
func (c *Console) Do(line string) (service.Reply, error) {
	if w := strings.ToLower(strings.TrimSpace(line)); w == "help" || w == "/help" || w == "?" {
		return service.Reply{Text: Help()}, nil
	}
	who, cmdline, ok := strings.Cut(line, ":")
	who = strings.TrimSpace(who)
	if !ok || who == "" || strings.ContainsAny(who, " /") {
		return service.Reply{Text: "Write who speaks first: \"ana: /new elemental bo\". Type \"help\" for the commands.", Ephemeral: true}, nil
	}
	if _, ok := opponentName(who); !ok {
		return service.Reply{Text: fmt.Sprintf("%q is not a player's name: a name is letters, digits, '_', '.' and '-', at most %d of them.", clip(who), maxName), Ephemeral: true}, nil
	}
	c.n++
	// Whoever types at the console owns it: they manage its "server".
	req := service.Request{User: user(who), ChannelID: c.channel, GuildID: "console", InteractionID: "", ManageServer: true}
	f := strings.Fields(cmdline)
	if len(f) == 0 {
		return service.Reply{Text: Help(), Ephemeral: true}, nil
	}
	cmd, args := strings.ToLower(strings.TrimPrefix(f[0], "/")), f[1:]
	// An optional game reference "#12" right after the command.
	ref := ""
	if len(args) > 0 && strings.HasPrefix(args[0], "#") {
		ref, args = args[0], args[1:]
	}
	if x, ok := extras[cmd]; ok {
		return x.run(c, req, ref, args)
	}
	if cmd == "help" {
		return service.Reply{Text: Help(), Ephemeral: true}, nil
	}
	command, ok := service.LookupCommand(cmd)
	if !ok {
		return service.Reply{Text: fmt.Sprintf("There is no command /%s. Type help for the commands.", clip(cmd)), Ephemeral: true}, nil
	}
	var in service.Args
	if len(command.Subcommands) > 0 {
		var refused *service.Reply
		if command, in, refused = subcommand(command, ref, args); refused != nil {
			return *refused, nil
		}
	} else if sx, ok := syntaxes[cmd]; ok {
		var refused *service.Reply
		if in, refused = sx.read(c, req, ref, args); refused != nil {
			return *refused, nil
		}
	} else {
		if refused := bareOption(command, args); refused != nil {
			return *refused, nil
		}
		in = readOptions(command, ref, args)
	}
	if command.Run == nil { // a table's mistake, not the player's
		return service.Reply{}, fmt.Errorf("/%s has no Run", cmd)
	}
	r, err := c.svc.RunCommand(req, command, in)
	if u, ok := in.User("user"); ok && cmd == "profile" {
		// Filed under the name of the player it shows: one profile.png
		// for all, bo's was written over ana's.
		for i := range r.Files {
			r.Files[i].Name = fileSafe(u.ID) + "-" + r.Files[i].Name
		}
	}
	if cmd == "leaderboard" {
		// Filed under its game and server: every leaderboard was
		// leaderboard.png, each written over the last.
		game, ok := gameID(in.String("game"))
		if !ok {
			game = fileSafe(in.String("game"))
		}
		for i := range r.Files {
			base, ext, _ := strings.Cut(r.Files[i].Name, ".")
			r.Files[i].Name = fmt.Sprintf("%s-%s-%s.%s", base, game, fileSafe(req.GuildID), ext)
		}
	}
	return r, err
}

// bareOption answers a word that names one of cmd's options without its
// "=" ("/settings notify on"), which readOptions would leave out, with
// the form expected: options need =.
func bareOption(cmd service.Command, args []string) *service.Reply {
	for i, a := range args {
		o, ok := cmd.Option(strings.ToLower(a))
		if !ok || strings.Contains(a, "=") {
			continue
		}
		value := "…"
		if o.Type == service.BooleanOption {
			value = "true"
		}
		if i+1 < len(args) && !strings.Contains(args[i+1], "=") {
			value = args[i+1]
		}
		return private(fmt.Sprintf("Options need =: write /%s %s=%s (%s).", cmd.Name, o.Name, clip(value), Reword(o.Description)))
	}
	return nil
}

func gameList() string {
	var ids []string
	for _, g := range service.GameIDs() {
		ids = append(ids, g.Value)
	}
	return strings.Join(ids, ", ")
}

// pending finds the challenge a console /accept or /decline means: the
// one named, or the newest waiting for the caller.
func (c *Console) pending(req service.Request, ref string) (string, error) {
	ctx := req.Context()
	if ref != "" {
		return strings.TrimPrefix(ref, "#"), nil
	}
	games, err := c.svc.GamesOf(ctx, req.User.ID)
	if err != nil {
		return "", err
	}
	for i := len(games) - 1; i >= 0; i-- {
		if games[i].Status == "challenge" {
			return fmt.Sprint(games[i].ID), nil
		}
	}
	return "", tessera.Errorf(tessera.ENOTFOUND, "You have no challenge waiting; start one with /new.")
}

// user is a console user: the name is the id.
func user(name string) service.User {
	name = strings.ToLower(strings.TrimSpace(name))
	return service.User{ID: name, Name: name}
}

// print shows a reply to who. A picture only who sees (a hand) is filed
// under who's name, so that each player's hand is its own file.
func (c *Console) print(r service.Reply, who string) {
	prefix := ""
	if r.Ephemeral {
		prefix = "(only you) "
	}
	files := r.Files
	text := Plain(r.Text)
	if r.Ephemeral && who != "" {
		files = make([]service.File, len(r.Files))
		for i, f := range r.Files {
			f.Name = fileSafe(user(who).ID) + "-" + f.Name
			files[i] = f
		}
	}
	if c.dir != "" {
		// The reply names its files ("game-1.json plays back with ..."):
		// name the ones written, as they are named there.
		for i, f := range files {
			text = strings.ReplaceAll(text, r.Files[i].Name, filepath.Join(c.dir, f.Name))
		}
	}
	fmt.Fprintln(c.out, prefix+text)
	for _, b := range r.Buttons {
		fmt.Fprintf(c.out, "  %s\n", button(b))
	}
	c.files(files)
}

// fileSafe keeps a name's letters, digits, '-' and '_' for a file name.
func fileSafe(name string) string {
	b := []rune(name)
	for i, r := range b {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' {
			b[i] = '_'
		}
	}
	return string(b)
}

// files writes pictures to the pictures folder.
func (c *Console) files(fs []service.File) {
	for _, f := range fs {
		if c.dir == "" || !c.shown.picture(f) {
			continue
		}
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			fmt.Fprintln(c.out, "cannot write pictures:", err)
			return
		}
		p := filepath.Join(c.dir, f.Name)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			fmt.Fprintln(c.out, "cannot write picture:", err)
			continue
		}
		fmt.Fprintf(c.out, "  picture: %s\n", p)
	}
}

// Link names a game's place in console output (the console's threads are
// named, not numbered).
func Link(_, channelID string) string {
	if name, ok := strings.CutPrefix(channelID, "thread:"); ok {
		return "the thread “" + name + "”"
	}
	return "#" + channelID
}
