package web

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tessera/internal/chrome"
	"tessera/service"
)

func TestMain(m *testing.M) { chrome.Main(m) }

func TestZZClick(t *testing.T) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		t.Run(kind, func(t *testing.T) {
			s := newSite(t)
			g := s.start(kind, "")
			st, _ := service.Replay(g)
			mover := []service.User{ana, bo}[st.ToMove()]
			token, _ := s.svc.PlayerToken(context.Background(), g, mover.ID)
			tab := chrome.Tab(t)
			chrome.Do(t, tab, chromedp.EmulateViewport(390, 900), chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token))
			js := `(function(){
 const b = document.querySelector('.picker .choose button'); if (b && b.getAttribute('aria-pressed')!=='true') { b.click(); return 'piece '+b.textContent; }
 const c = document.querySelector('#play .confirm:not(.hidden)'); if (c) { const t = c.querySelector('.chosen').textContent; c.querySelector('[data-act="play"]').click(); return 'play '+t; }
 const h = document.querySelector('circle.hit'); if (h) { h.dispatchEvent(new MouseEvent('click',{bubbles:true})); return 'tap '+h.getAttribute('cx')+','+h.getAttribute('cy'); }
 return 'nothing: '+document.querySelector('#play').innerText.slice(0,200);
})()`
			for i := 0; i < 8; i++ {
				out := chrome.Run(t, tab, chromedp.Evaluate[string](js))
				t.Log(out)
				time.Sleep(300 * time.Millisecond)
				if len(out) > 4 && out[:4] == "play" {
					break
				}
			}
			deadline := time.Now().Add(10 * time.Second)
			for len(s.game(g.ID).Moves) == 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			t.Log("moves:", s.game(g.ID).Moves)
			msg := chrome.Run(t, tab, chromedp.Evaluate[string](`(document.querySelector('#play .message')||{textContent:'-'}).textContent + ' | ' + document.querySelector('.status').textContent`))
			t.Log(msg)
		})
	}
}
