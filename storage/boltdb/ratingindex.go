package boltdb

// The ratings' buckets besides the rows, kept by PutRating in the same
// transaction as the row, and built for a file made before them, on its
// first open for writing, in bounded batches that a kill cannot spoil:
//
//	rating_history  guild 0x00 game 0x00 user -> the rating's History (JSON)
//	rating_ranks    guild 0x00 game 0x00 rank -> user: the leaderboard's order
//	rating_players  guild 0x00 user 0x00 game -> nothing: a player's games
//	rating_counts   guild 0x00 game           -> how many players are rated
//	rating_bins     guild 0x00 game 0x00 bin  -> how many players' ordinals are in the bin
//
// A rank (rankKey) is the ordinal and the games, inverted so that the best
// comes first, then the name and the user id: bytes that sort as
// storage.CompareRank does, so a leaderboard is a range read. A place is
// the players of the bins above the player's (ordinals a quarter wide,
// best first: a few hundred keys at most) plus the player's place among
// the rank keys of their own bin.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

var (
	bRatingHistory = []byte("rating_history")
	bRatingRanks   = []byte("rating_ranks")
	bRatingPlayers = []byte("rating_players")
	bRatingCounts  = []byte("rating_counts")
	bRatingBins    = []byte("rating_bins")

	// kRatingsIndexed marks a file whose ratings are all indexed (its
	// rows carry no history); kRatingsIndexing is the last row key an
	// unfinished build indexed, to resume after.
	kRatingsIndexed  = []byte("ratings_indexed")
	kRatingsIndexing = []byte("ratings_indexing")
)

// ratingBucketNames are the ratings' buckets, rows first.
var ratingBucketNames = [][]byte{bRatings, bRatingHistory, bRatingRanks, bRatingPlayers, bRatingCounts, bRatingBins}

// ratingBuckets are the ratings' buckets in one transaction (nil: not made
// yet, in a file opened read-only).
type ratingBuckets struct {
	rows, history, ranks, players, counts, bins *bolt.Bucket
}

func ratingBucketsOf(tx *bolt.Tx) ratingBuckets {
	return ratingBuckets{tx.Bucket(bRatings), tx.Bucket(bRatingHistory), tx.Bucket(bRatingRanks), tx.Bucket(bRatingPlayers), tx.Bucket(bRatingCounts), tx.Bucket(bRatingBins)}
}

func createRatingBuckets(tx *bolt.Tx) (ratingBuckets, error) {
	for _, name := range ratingBucketNames {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return ratingBuckets{}, err
		}
	}
	return ratingBucketsOf(tx), nil
}

// ratingsIndexed reports whether the file's ratings are indexed (false
// only for a file made before the indexes and opened read-only since).
func ratingsIndexed(tx *bolt.Tx) bool {
	return tx.Bucket(bMeta).Get(kRatingsIndexed) != nil
}

func rankPrefix(guild, game string) []byte {
	return []byte(guild + "\x00" + game + "\x00")
}

// sortableFloat maps a float64 to a number whose unsigned order is the
// float's order (negatives first): the sign bit flipped for positives,
// every bit for negatives.
func sortableFloat(f float64) uint64 {
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// rankKey is r's key in the rank index. The name may hold any byte: a 0
// in it is written 0 0xFF and the name ends with 0 0, so that names
// compare as strings.Compare does whatever follows them.
func rankKey(r tessera.Rating) []byte {
	k := make([]byte, 0, len(r.GuildID)+len(r.Game)+len(r.Name)+len(r.UserID)+22)
	k = append(k, rankPrefix(r.GuildID, r.Game)...)
	k = binary.BigEndian.AppendUint64(k, ^sortableFloat(storage.Ordinal(r)))
	k = binary.BigEndian.AppendUint64(k, ^uint64(max(r.Games, 0)))
	for i := 0; i < len(r.Name); i++ {
		if k = append(k, r.Name[i]); r.Name[i] == 0 {
			k = append(k, 0xFF)
		}
	}
	k = append(k, 0, 0)
	return append(k, r.UserID...)
}

// rankOrdinal is the ordinal a rank key holds (prefix: its server's and
// game's).
func rankOrdinal(k []byte, prefix int) float64 {
	b := ^binary.BigEndian.Uint64(k[prefix : prefix+8])
	if b>>63 != 0 {
		return math.Float64frombits(b &^ (1 << 63))
	}
	return math.Float64frombits(^b)
}

// ordinalBin is the bin of an ordinal: a quarter of a point wide (ten
// points of the shown rating), floor(4 x ordinal), computed exactly.
func ordinalBin(ordinal float64) int64 {
	return int64(math.Floor(ordinal * 4))
}

// binKey is the key of a bin of game in guild; the higher bins first.
func binKey(guild, game string, bin int64) []byte {
	return binary.BigEndian.AppendUint64(rankPrefix(guild, game), ^(uint64(bin) ^ 1<<63))
}

// addToBin changes the count of players in a bin by delta.
func (b ratingBuckets) addToBin(guild, game string, bin int64, delta int) error {
	k := binKey(guild, game, bin)
	n := int64(delta)
	if v := b.bins.Get(k); len(v) == 8 {
		n += int64(binary.BigEndian.Uint64(v))
	}
	if n <= 0 {
		return b.bins.Delete(k)
	}
	return b.bins.Put(k, itob(uint64(n)))
}

func playerKey(guild, user, game string) []byte {
	return []byte(guild + "\x00" + user + "\x00" + game)
}

func countKey(guild, game string) []byte {
	return []byte(guild + "\x00" + game)
}

// count is how many players have a rating of game in guild.
func (b ratingBuckets) count(guild, game string) int {
	if b.counts == nil {
		return 0
	}
	if v := b.counts.Get(countKey(guild, game)); len(v) == 8 {
		return int(binary.BigEndian.Uint64(v))
	}
	return 0
}

// put writes r's row (without its history), its history and its index
// keys. old is the row r replaces, nil when r is new to the indexes (then
// its game's count goes up by one).
func (b ratingBuckets) put(r tessera.Rating, old *tessera.Rating) error {
	key := ratingKey(r.GuildID, r.Game, r.UserID)
	h, err := json.Marshal(r.History)
	if err != nil {
		return err
	}
	row := r
	row.History = nil
	v, err := json.Marshal(row)
	if err != nil {
		return err
	}
	if err := b.rows.Put(key, v); err != nil {
		return err
	}
	if err := b.history.Put(key, h); err != nil {
		return err
	}
	if old != nil {
		if err := b.ranks.Delete(rankKey(*old)); err != nil {
			return err
		}
	}
	if err := b.ranks.Put(rankKey(r), []byte(r.UserID)); err != nil {
		return err
	}
	if err := b.players.Put(playerKey(r.GuildID, r.UserID, r.Game), nil); err != nil {
		return err
	}
	bin := ordinalBin(storage.Ordinal(r))
	if old == nil {
		if err := b.addToBin(r.GuildID, r.Game, bin, 1); err != nil {
			return err
		}
		return b.counts.Put(countKey(r.GuildID, r.Game), itob(uint64(b.count(r.GuildID, r.Game)+1)))
	}
	if was := ordinalBin(storage.Ordinal(*old)); was != bin {
		if err := b.addToBin(r.GuildID, r.Game, was, -1); err != nil {
			return err
		}
		return b.addToBin(r.GuildID, r.Game, bin, 1)
	}
	return nil
}

// ratingIndexBatch is how many ratings one transaction of the build
// indexes: a bounded write, and a bounded loss when a kill interrupts it.
const ratingIndexBatch = 1000

// buildRatingIndexes indexes the ratings of a file made before the
// indexes (every rating, once), batch ratings a transaction in key order,
// each transaction recording how far it went: a kill loses at most the
// batch under way, and the next open resumes after the last one
// committed. A file with nothing to index is only marked. It says so in
// log. afterBatch (tests) runs inside each batch's transaction once its
// writes are made, before it commits; an error from it rolls the batch
// back.
func buildRatingIndexes(db *bolt.DB, path string, batch int, log *slog.Logger, afterBatch func(n int) error) error {
	log = log.With("database", path)
	total, done, batches := 0, 0, 0
	for {
		finished := false
		err := db.Update(func(tx *bolt.Tx) error {
			meta := tx.Bucket(bMeta)
			if meta.Get(kRatingsIndexed) != nil {
				finished = true
				return nil
			}
			b, err := createRatingBuckets(tx)
			if err != nil {
				return err
			}
			from := meta.Get(kRatingsIndexing)
			if batches == 0 {
				if total = b.rows.Stats().KeyN; total > 0 && from == nil {
					log.Info("building the rating indexes (first open by this version): the history apart, the leaderboards' order, each player's games", "ratings", total, "batch", batch)
				} else if total > 0 {
					log.Info("resuming the build of the rating indexes after an interruption", "ratings", total, "after", string(bytes.ReplaceAll(from, []byte{0}, []byte("/"))))
				}
			}
			// bbolt's cursors may not survive writes to their bucket:
			// the batch is read first, then written.
			type item struct{ key, value []byte }
			var items []item
			c := b.rows.Cursor()
			k, v := c.First()
			if from != nil {
				if k, v = c.Seek(from); bytes.Equal(k, from) {
					k, v = c.Next()
				}
			}
			for ; k != nil && len(items) < batch; k, v = c.Next() {
				items = append(items, item{bytes.Clone(k), bytes.Clone(v)})
			}
			for _, it := range items {
				var r tessera.Rating
				if err := json.Unmarshal(it.value, &r); err != nil {
					return &storage.DamagedError{Path: path, Reason: fmt.Sprintf("rating %q does not decode: %v", it.key, err)}
				}
				if !bytes.Equal(it.key, ratingKey(r.GuildID, r.Game, r.UserID)) {
					return &storage.DamagedError{Path: path, Reason: fmt.Sprintf("rating %q is stored under another key", it.key)}
				}
				if err := b.put(r, nil); err != nil {
					return err
				}
			}
			if len(items) < batch {
				finished = true
				if err := meta.Delete(kRatingsIndexing); err != nil {
					return err
				}
				if err := meta.Put(kRatingsIndexed, []byte("1")); err != nil {
					return err
				}
			} else if err := meta.Put(kRatingsIndexing, items[len(items)-1].key); err != nil {
				return err
			}
			if afterBatch != nil {
				if err := afterBatch(batches + 1); err != nil {
					return err
				}
			}
			done += len(items)
			return nil
		})
		if err != nil {
			return fmt.Errorf("database %s: building the rating indexes: %w", path, err)
		}
		batches++
		if finished {
			if total > 0 {
				log.Info("built the rating indexes", "ratings", done, "transactions", batches)
			}
			return nil
		}
		log.Debug("rating indexes: a batch built", "ratings", done, "of", total)
	}
}
