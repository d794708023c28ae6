package boltdb

import bolt "go.etcd.io/bbolt"

// bbolt maps the whole file into memory, and every page a reader touches
// stays in the process's resident memory until the kernel needs it back:
// a walk of every game of a 5 GB file (tessera check, backup's
// verification) would leave the process 5 GB large, though it keeps
// nothing. release tells the kernel the process no longer needs the
// pages it has read; the next read of one finds it again in the page
// cache. bbolt maps the file read-only and shared (MAP_SHARED, PROT_READ,
// writes go through the file), so dropping the mapping's pages loses
// nothing.

// releaseEvery is how many bytes of keys and values a walk reads between
// two releases. It is small because a page fault on the mapping maps the
// pages around the one read too (the kernel's fault-around, 64 KB), so a
// walk of an index whose pages lie scattered over a large file holds many
// times what it read: at 16 MB a check's walk of a 5.4 GB file (1M
// games) peaked at 308 MB resident, at 4 MB at 104 MB. A release costs a
// system call that skips the unmapped ranges: a few thousand of them a
// walk of that file.
const releaseEvery = 4 << 20

// releasing counts what a walk inside tx has read and releases the
// mapping's pages every releaseEvery bytes: each walk of a check (the
// trees, the games, the indexes and the ratings) keeps to that much.
type releasing struct {
	tx *bolt.Tx
	n  int
}

// read counts n more bytes read (a key, its value, its element).
func (r *releasing) read(n int) {
	if r.n += n; r.n >= releaseEvery {
		r.n = 0
		release(r.tx)
	}
}

// gameReadBytes is what a walk counts for a game it looks up by key: the
// page it lies on, about.
const gameReadBytes = 4096

// lookup counts n keys looked up (Bucket.Get) beside the walk: each
// brings in at least the leaf page it lies on. Uncounted, the lookups of
// a check's index walks kept 200 MB of a 100k-game file resident.
func (r *releasing) lookup(n int) { r.read(n * gameReadBytes) }
