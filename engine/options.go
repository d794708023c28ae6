package engine

import "sort"

// OptionWords are a game's options as a player writes them: "name=value"
// words, sorted by name. Every place that shows options (a challenge, a
// lab report) writes them so.
func OptionWords(opts map[string]string) []string {
	words := make([]string, 0, len(opts))
	for k, v := range opts {
		words = append(words, k+"="+v)
	}
	sort.Strings(words)
	return words
}
