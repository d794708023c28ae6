package render

import (
	"image"

	"tessera/engine"
)

// The layouts of each kind of picture, for the tests: the picture's
// bounds and every text drawn in it, as the renderer placed them.

func BoardTexts(sc engine.Scene, p Panel) (image.Rectangle, []TextBox) {
	var log []TextBox
	t, boardH, h := boardLayout(sc, p)
	img := image.NewRGBA(image.Rect(0, 0, Width, h))
	drawBoard(img, sc, p, t, boardH, &log)
	return img.Bounds(), log
}

func SceneTexts(sc engine.Scene) (image.Rectangle, []TextBox) {
	var log []TextBox
	img := sceneImage(sc, &log)
	return img.Bounds(), log
}

func LeaderboardTexts(t LeaderTable) (image.Rectangle, []TextBox) {
	var log []TextBox
	img := leaderboardImage(t, &log)
	return img.Bounds(), log
}

func ProfileTexts(c ProfileCard) (image.Rectangle, []TextBox) {
	var log []TextBox
	img := profileImage(c, &log)
	return img.Bounds(), log
}

func ReplayFrameTexts(f ReplayFrame) (image.Rectangle, []TextBox) {
	var log []TextBox
	_, _, h := boardLayout(f.Scene, f.Panel)
	img := image.NewRGBA(image.Rect(0, 0, Width, CaptionHeight+h))
	drawFrame(img, f, &log)
	return img.Bounds(), log
}

func StandingsTexts(s Standings) (image.Rectangle, []TextBox) {
	var log []TextBox
	img := standingsImage(s, &log)
	return img.Bounds(), log
}

// ForgetRecent drops the recent boards BoardOn keeps, so that the next
// board is drawn as the first of its game (benchmarks).
func ForgetRecent() { forgetRecent() }
