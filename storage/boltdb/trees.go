package boltdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	bolt "go.etcd.io/bbolt"

	"tessera/storage"
)

// checkPages verifies the page structure of the file as of the read
// transaction txid, reading it page by page with pread (io.ReaderAt), so
// that a check takes the same memory for a file of 50 MB or 50 GB: one
// buffer per tree level, and two bits a page (reached, free). bbolt's own
// checker (Tx.Check) keeps a map entry for every page, reads through the
// memory map (every page read stays resident) and runs in a goroutine of
// its own, where a page that faults cannot be recovered; and its cursor
// descends for ever into a branch page that points back up its tree.
//
// It verifies what Tx.Check does: every tree from the header's root is
// made of branch and leaf pages inside the file, each reached once (a
// loop is damage); keys ascend within each page and stay within the range
// their parent's branch keys give; no page is both reached and free; and
// every page below the high-water mark is reached or free. A fault that
// makes the trees unreadable (a page out of bounds, a loop, a page of the
// wrong kind, an element past its page) is fatal: the walk stops there.
// Other problems are returned, the first maxProblems of them, then one
// line counting the rest.
//
// The reads are consistent with the transaction: while it is open bbolt
// neither frees nor rewrites the pages its header reaches.
func checkPages(r io.ReaderAt, txid uint64) (problems []error, fatal error) {
	return checkPagesOf(r, txid, false)
}

// checkPagesOf is checkPages; with pastDamage, a subtree that cannot be
// read is one problem (damagedSubtree) and the walk goes on with its
// siblings, so that the pages of the rest are all reached (loops still
// stop it), and a free list that cannot be read is a freeListUnread.
func checkPagesOf(r io.ReaderAt, txid uint64, pastDamage bool) (problems []error, fatal error) {
	m, err := metaOf(r, txid)
	if err != nil {
		return nil, err
	}
	c := &pageCheck{r: r, ps: int(m.pageSize), pages: m.pgid, reached: newBitset(m.pgid), freed: newBitset(m.pgid), pastDamage: pastDamage}
	c.reached.set(0)
	c.reached.set(1)
	if m.freelist != noFreelist {
		if err := c.readFreelist(m.freelist); err != nil {
			if pastDamage {
				return nil, freeListUnread{err}
			}
			return nil, err
		}
	}
	if err := c.visit(m.root, nil, nil, 0); err != nil {
		return c.problems, err
	}
	for id := uint64(2); id < m.pgid; id++ {
		if !c.reached.has(id) && !c.freed.has(id) {
			c.problem(leakedPage(id))
		}
	}
	if c.more > 0 {
		c.problems = append(c.problems, fmt.Errorf("and %d more problems of the same kinds", c.more))
	}
	return c.problems, nil
}

// maxProblems bounds the problems listed: a file where every page is
// wrong needs no million lines to say so.
const maxProblems = 50

// metaOf reads the header page of transaction txid: the first at 0, the
// second one page later, where the page size is unknown when the first
// is bad (bbolt's own search).
func metaOf(r io.ReaderAt, txid uint64) (boltMeta, error) {
	buf := make([]byte, pageHeaderSize+metaSize)
	read := func(off int64) (boltMeta, bool) {
		if n, _ := r.ReadAt(buf, off); n < len(buf) {
			return boltMeta{}, false
		}
		m, ok := parseMeta(buf)
		return m, ok && (off == 0 || int64(m.pageSize) == off)
	}
	m, ok := read(0)
	if ok && m.txid == txid {
		return m, nil
	}
	offs := []int64{int64(m.pageSize)}
	if !ok {
		offs = offs[:0]
		for ps := int64(minPageSize); ps <= maxPageSize; ps <<= 1 {
			offs = append(offs, ps)
		}
	}
	for _, off := range offs {
		if m, ok := read(off); ok {
			if m.txid == txid {
				return m, nil
			}
			break
		}
	}
	// A running bot commits while the check starts: the header of the
	// transaction read was overwritten (bbolt keeps two, alternately).
	return boltMeta{}, errTxGone
}

// errTxGone asks for the check to be run again.
var errTxGone = errors.New("the database changed while its header was read")

type pageCheck struct {
	r        io.ReaderAt
	ps       int
	pages    uint64 // the header's page count: every page id is below it
	reached  bitset
	freed    bitset
	bufs     [][]byte // one page (with its overflow) per tree level
	problems []error
	more     int
	// pastDamage: a subtree that cannot be read is a problem, not the
	// end of the walk (checkPagesOf).
	pastDamage bool
}

// descend visits a child tree; past damage, a child that cannot be read
// (but does not loop) is a problem and the walk goes on.
func (c *pageCheck) descend(id uint64, lo, hi []byte, depth int) error {
	err := c.visit(id, lo, hi, depth)
	var loop loopHazard
	var sub damagedSubtree
	if err != nil && c.pastDamage && !errors.As(err, &loop) {
		if !errors.As(err, &sub) {
			c.problem(damagedSubtree{err})
		}
		return nil
	}
	return err
}

// damagedSubtree is a tree under a page that cannot be read: a read of
// it reports the damage; the rest of the file can be written safely.
type damagedSubtree struct{ error }

func (e damagedSubtree) Unwrap() error { return e.error }

// freeListUnread is a free list that cannot be read: what it hands out
// next is unknown, so the file must not be written.
type freeListUnread struct{ error }

func (e freeListUnread) Unwrap() error { return e.error }

func (c *pageCheck) problem(err error) {
	if len(c.problems) < maxProblems {
		c.problems = append(c.problems, err)
	} else {
		c.more++
	}
}

// Page and element layouts (bbolt's internal/common): a page header of
// 16 bytes (id, flags, count, overflow), branch elements of 16 (pos,
// ksize, child page id), leaf elements of 16 (flags, pos, ksize, vsize),
// pos counted from the element itself; a bucket's value starts with its
// root page id (0: inline, its page inside the value). A free list page
// holds page ids; a count of 0xFFFF means the real count is its first.
const (
	branchPage     = 0x01
	leafPage       = 0x02
	freelistPage   = 0x10
	bucketLeafFlag = 0x01
	elementSize    = 16
	maxTreeDepth   = 64
)

// read reads page id, with its overflow, into the buffer of level depth.
func (c *pageCheck) read(id uint64, depth int) ([]byte, error) {
	var h [pageHeaderSize]byte
	if _, err := c.r.ReadAt(h[:], int64(id)*int64(c.ps)); err != nil {
		return nil, fmt.Errorf("page %d cannot be read: %w", id, err)
	}
	le := binary.LittleEndian
	if got := le.Uint64(h[:]); got != id {
		return nil, fmt.Errorf("page %d says it is page %d", id, got)
	}
	overflow := uint64(le.Uint32(h[12:]))
	if overflow >= c.pages || id+overflow >= c.pages {
		return nil, fmt.Errorf("page %d runs past the file's pages (%d overflow pages)", id, overflow)
	}
	for len(c.bufs) <= depth {
		c.bufs = append(c.bufs, nil)
	}
	n := int(overflow+1) * c.ps
	if cap(c.bufs[depth]) < n {
		c.bufs[depth] = make([]byte, n)
	}
	p := c.bufs[depth][:n]
	if _, err := c.r.ReadAt(p, int64(id)*int64(c.ps)); err != nil {
		return nil, fmt.Errorf("page %d cannot be read: %w", id, err)
	}
	for i := uint64(0); i <= overflow; i++ {
		if c.reached.has(id + i) {
			return nil, loopHazard{fmt.Errorf("page %d is reached twice from the trees (a loop, or two references)", id+i)}
		}
		c.reached.set(id + i)
	}
	return p, nil
}

func (c *pageCheck) readFreelist(id uint64) error {
	if id < 2 || id >= c.pages {
		return fmt.Errorf("the free list is at page %d, outside the file's pages 2 to %d", id, c.pages-1)
	}
	p, err := c.read(id, 0)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	if f := le.Uint16(p[8:]); f != freelistPage {
		return fmt.Errorf("the free list's page %d is not a free list page (flags %#x)", id, f)
	}
	count, ids := uint64(le.Uint16(p[10:])), p[pageHeaderSize:]
	if count == 0xFFFF {
		count, ids = le.Uint64(ids), ids[8:]
	}
	if count > uint64(len(ids)/8) {
		return fmt.Errorf("the free list's page %d counts %d pages, more than it holds", id, count)
	}
	for i := range count {
		free := le.Uint64(ids[i*8:])
		switch {
		case free < 2 || free >= c.pages:
			c.problem(fmt.Errorf("page %d: freed, but outside the file's pages 2 to %d", free, c.pages-1))
		case c.freed.has(free):
			c.problem(fmt.Errorf("page %d: already freed", free))
		default:
			c.freed.set(free)
		}
	}
	return nil
}

// visit checks the tree under page id, whose keys must be at least lo
// and below hi (nil: no bound). Keys are compared in place: each tree
// level has its own buffer, so a parent's keys stay while its children
// are read.
func (c *pageCheck) visit(id uint64, lo, hi []byte, depth int) error {
	switch {
	case id < 2 || id >= c.pages:
		return fmt.Errorf("a tree points to page %d, outside the file's pages 2 to %d", id, c.pages-1)
	case depth > maxTreeDepth:
		return loopHazard{fmt.Errorf("a tree deeper than %d pages at page %d", maxTreeDepth, id)}
	}
	p, err := c.read(id, depth)
	if err != nil {
		return err
	}
	if c.freed.has(id) {
		c.problem(fmt.Errorf("page %d: reachable freed", id))
	}
	le := binary.LittleEndian
	flags, count := le.Uint16(p[8:]), int(le.Uint16(p[10:]))
	if pageHeaderSize+count*elementSize > len(p) {
		return fmt.Errorf("page %d counts %d elements, more than it holds", id, count)
	}
	// field returns the n bytes at off from element e, or false when they
	// lie outside the page.
	field := func(e int, off, n uint32) ([]byte, bool) {
		start := uint64(e) + uint64(off)
		if start+uint64(n) > uint64(len(p)) {
			return nil, false
		}
		return p[start : start+uint64(n)], true
	}
	order := func(i int, key, prev []byte) {
		switch {
		case i > 0 && bytes.Compare(prev, key) >= 0:
			c.problem(orderProblem{fmt.Errorf("page %d: key %d is not above the key before it", id, i)})
		case i == 0 && lo != nil && bytes.Compare(key, lo) < 0:
			c.problem(orderProblem{fmt.Errorf("page %d: its first key is below its parent's key", id)})
		}
		if hi != nil && bytes.Compare(key, hi) >= 0 {
			c.problem(orderProblem{fmt.Errorf("page %d: key %d is not below the next key of its parent", id, i)})
		}
	}
	var prev []byte
	for i := range count {
		e := pageHeaderSize + i*elementSize
		switch flags {
		case branchPage:
			key, ok := field(e, le.Uint32(p[e:]), le.Uint32(p[e+4:]))
			if !ok {
				return fmt.Errorf("element %d of branch page %d lies past its page", i, id)
			}
			order(i, key, prev)
			next := hi
			if i+1 < count {
				n := e + elementSize
				if next, ok = field(n, le.Uint32(p[n:]), le.Uint32(p[n+4:])); !ok {
					return fmt.Errorf("element %d of branch page %d lies past its page", i+1, id)
				}
			}
			if err := c.descend(le.Uint64(p[e+8:]), key, next, depth+1); err != nil {
				return err
			}
			prev = key
		case leafPage:
			pos, ksize, vsize := le.Uint32(p[e+4:]), le.Uint32(p[e+8:]), le.Uint32(p[e+12:])
			kv, ok := field(e, pos, ksize+vsize)
			if !ok || ksize+vsize < ksize {
				return fmt.Errorf("element %d of leaf page %d lies past its page", i, id)
			}
			key, value := kv[:ksize], kv[ksize:]
			order(i, key, prev)
			prev = key
			if le.Uint32(p[e:])&bucketLeafFlag == 0 {
				continue // a key and its value, no bucket
			}
			if len(value) < 8 {
				return fmt.Errorf("a bucket of page %d is cut short", id)
			}
			if root := le.Uint64(value); root != 0 {
				if err := c.descend(root, nil, nil, depth+1); err != nil {
					return err
				}
			} else if err := inlineBucket(id, value); err != nil { // 0: an inline bucket, a leaf inside the value
				return err
			}
		default:
			return fmt.Errorf("page %d of a tree is neither a branch nor a leaf (flags %#x)", id, flags)
		}
	}
	return nil
}

// inlineBucket checks a bucket kept inside its parent's value (root 0):
// after the bucket's header of 16 bytes (root, sequence) comes one leaf
// page whose elements lie inside the value and hold no bucket. bbolt
// writes nothing else there; its cursor, given a branch there instead,
// descends into the same inline page for ever, growing its stack until
// the process runs out of memory (a flipped key size in the parent's
// leaf moves the value's start onto such bytes).
func inlineBucket(parent uint64, value []byte) error {
	const bucketHeaderSize = 16
	if len(value) < bucketHeaderSize+pageHeaderSize {
		return fmt.Errorf("an inline bucket of page %d is cut short", parent)
	}
	p := value[bucketHeaderSize:]
	le := binary.LittleEndian
	flags, count := le.Uint16(p[8:]), int(le.Uint16(p[10:]))
	if flags != leafPage {
		return loopHazard{fmt.Errorf("an inline bucket of page %d is not a leaf (flags %#x)", parent, flags)}
	}
	if pageHeaderSize+count*elementSize > len(p) {
		return fmt.Errorf("an inline bucket of page %d counts %d elements, more than it holds", parent, count)
	}
	for i := range count {
		e := pageHeaderSize + i*elementSize
		pos, ksize, vsize := uint64(le.Uint32(p[e+4:])), uint64(le.Uint32(p[e+8:])), uint64(le.Uint32(p[e+12:]))
		if uint64(e)+pos+ksize+vsize > uint64(len(p)) {
			return fmt.Errorf("element %d of an inline bucket of page %d lies past its value", i, parent)
		}
		if le.Uint32(p[e:])&bucketLeafFlag != 0 {
			return loopHazard{fmt.Errorf("an inline bucket of page %d holds a bucket", parent)}
		}
	}
	return nil
}

// orderProblem is a key out of order: a read may miss a record, which
// tessera check reports; it is no reason to stop the bot.
type orderProblem struct{ error }

func (e orderProblem) Unwrap() error { return e.error }

// leakedPage is a page neither reached nor free: space lost, nothing
// else. It is the one problem that writing on cannot make worse.
type leakedPage uint64

func (id leakedPage) Error() string { return fmt.Sprintf("page %d: unreachable unfreed", uint64(id)) }

// loopHazard is damage that makes bbolt's cursor run for ever rather than
// fail: a page reached twice (a loop), a tree deeper than any bbolt
// writes, an inline bucket that is not a leaf. A read that meets it does
// not panic (which guarded would turn into a DamagedError); it loops,
// growing memory until the process dies.
type loopHazard struct{ error }

func (e loopHazard) Unwrap() error { return e.error }

// checkBeforeWriting runs checkPages on the file's latest transaction and
// returns the first damage that makes opening it for writing unsafe:
//
//   - a free list that names a page still in a tree, twice, or outside
//     the file. bbolt trusts its free list: the next commit would hand
//     that page out and overwrite it, and the tree would then loop or
//     lose records. A flipped byte in the free list is enough;
//
//   - a loopHazard anywhere, which any read of it would meet.
//
//   - a free list that cannot be read (freeListUnread).
//
// Other damage (a page that says it is another, a key out of order, a
// page of the wrong kind) leaves the file open: bbolt panics on it, the
// store turns that into a DamagedError naming tessera check for the
// operation that met it, and the bot goes on serving the rest. The walk
// goes on past such a subtree (damagedSubtree), so the free list is
// checked against every other page. It reads every tree page once, one
// page at a time.
func checkBeforeWriting(db *bolt.DB) error {
	f, err := os.Open(db.Path())
	if err != nil {
		return fmt.Errorf("reading %s: %w", db.Path(), err)
	}
	defer f.Close()
	return db.View(func(tx *bolt.Tx) error {
		problems, err := checkPagesOf(f, uint64(tx.ID()), true)
		var loop loopHazard
		var unread freeListUnread
		if err != nil && !errors.As(err, &loop) && !errors.As(err, &unread) {
			err = nil // the root unreadable: every read reports it, and the free list was checked
		}
		for _, p := range problems {
			var leak leakedPage
			var sub damagedSubtree
			var order orderProblem
			if err == nil && !errors.As(p, &leak) && !errors.As(p, &sub) && !errors.As(p, &order) {
				err = p
			}
		}
		if err != nil {
			return &storage.DamagedError{Path: db.Path(), Reason: err.Error()}
		}
		return nil
	})
}

// bitset is one bit per page id.
type bitset []uint64

func newBitset(n uint64) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) set(i uint64)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i uint64) bool { return b[i/64]&(1<<(i%64)) != 0 }
