package mail

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlToText turns an HTML body into lines of text, the way a reader sees
// them: blocks and <br> end lines, scripts and styles vanish, and quoted
// parts come out prefixed with "> " so that the quote rules of plain
// mail apply. The quoting marks of the common clients are known:
// <blockquote> (Apple Mail, Thunderbird, Gmail), Gmail's div.gmail_quote,
// Yahoo's div.yahoo_quoted; Outlook's reply header (div#divRplyFwdMsg,
// hr#stopSpelling, div#appendonsend) becomes an "Original Message" line,
// where the plain rules stop reading.
func htmlToText(s string) string {
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		return ""
	}
	var t htmlText
	t.walk(doc, 0)
	t.flush()
	return strings.Join(t.lines, "\n")
}

// maxHTMLDepth bounds the walk's recursion; deeper content is dropped.
const maxHTMLDepth = 256

type htmlText struct {
	lines    []string
	cur      strings.Builder
	curDepth int // the quote depth when the current line began
	depth    int // the quote depth now
	stopped  bool
	pre      int // inside <pre>: line ends are kept
}

func (t *htmlText) flush() {
	line := strings.Join(strings.Fields(t.cur.String()), " ")
	if line != "" {
		t.lines = append(t.lines, strings.Repeat("> ", t.curDepth)+line)
	}
	t.cur.Reset()
}

func (t *htmlText) text(s string) {
	if strings.TrimSpace(s) == "" {
		if t.cur.Len() > 0 {
			t.cur.WriteByte(' ')
		}
		return
	}
	if strings.TrimSpace(t.cur.String()) == "" {
		t.curDepth = t.depth
	}
	t.cur.WriteString(s)
}

func (t *htmlText) walk(n *html.Node, level int) {
	if level > maxHTMLDepth || t.stopped {
		return
	}
	switch n.Type {
	case html.TextNode:
		if t.pre == 0 {
			t.text(n.Data)
			return
		}
		for i, line := range strings.Split(n.Data, "\n") {
			if i > 0 {
				t.flush()
			}
			t.text(line)
		}
		return
	case html.CommentNode, html.DoctypeNode:
		return
	case html.ElementNode:
		switch n.DataAtom {
		case atom.Script, atom.Style, atom.Head, atom.Title, atom.Template, atom.Noscript:
			return
		case atom.Br:
			t.flush()
			return
		case atom.Img:
			return
		}
		if outlookSeparator(n) {
			t.flush()
			t.lines = append(t.lines, "-----Original Message-----")
			t.stopped = true
			return
		}
	}
	quote := n.Type == html.ElementNode && isHTMLQuote(n)
	block := n.Type == html.ElementNode && isBlock(n.DataAtom)
	if quote || block {
		t.flush()
	}
	if quote {
		t.depth++
	}
	if n.DataAtom == atom.Pre {
		t.pre++
		defer func() { t.pre-- }()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		t.walk(c, level+1)
	}
	if quote || block {
		t.flush()
	}
	if quote {
		t.depth--
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

func isHTMLQuote(n *html.Node) bool {
	return n.DataAtom == atom.Blockquote || hasClass(n, "gmail_quote") || hasClass(n, "yahoo_quoted") || hasClass(n, "protonmail_quote")
}

func outlookSeparator(n *html.Node) bool {
	id := attr(n, "id")
	return id == "divRplyFwdMsg" || id == "stopSpelling" || id == "appendonsend" || id == "x_divRplyFwdMsg" || hasClass(n, "OutlookMessageHeader")
}

func isBlock(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Tr, atom.Li, atom.Ul, atom.Ol, atom.Table, atom.Hr, atom.Pre,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Body, atom.Section, atom.Article,
		atom.Header, atom.Footer, atom.Dl, atom.Dt, atom.Dd, atom.Address, atom.Center, atom.Form:
		return true
	}
	return false
}
