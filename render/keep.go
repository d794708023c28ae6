package render

// keep holds a few spare values for reuse. Unlike a sync.Pool it is not
// emptied by every garbage collection: a board's picture (3 MB), its
// filtered rows (2 MB), the compressors and the font faces with their
// glyph caches were made again after nearly every collection, which under
// load came every few boards. It holds at most its capacity; more are
// dropped for the collector.
type keep[T any] struct {
	ch    chan T
	fresh func() T
}

func newKeep[T any](n int, fresh func() T) *keep[T] {
	return &keep[T]{ch: make(chan T, n), fresh: fresh}
}

// get returns a kept value, or a fresh one when none is left.
func (k *keep[T]) get() T {
	select {
	case v := <-k.ch:
		return v
	default:
		return k.fresh()
	}
}

// put keeps v for the next get, or drops it when enough are kept.
func (k *keep[T]) put(v T) {
	select {
	case k.ch <- v:
	default:
	}
}
